import Foundation
import IntentBusCore

/// The request context an MDP client gives in its service name (docs/mdp.md "Context"):
/// `WeatherIntent?area=Kitchen&satellite=s1`. MDP/0.1 has no request header and its
/// bodies are the handlers' own bytes, so the service name — which every stock client
/// sends as given — is where a context can go without breaking either. Entries are
/// `key=value`, `&`-separated, percent-encoded (`Living%20Room`); values are strings.
/// The core checks the result like any header's `context` (RequestContext: 16 entries,
/// keys of 1 … 64 bytes, values of at most 255).
enum MajordomoContext {
    /// The context of `query` (what follows the `?`), or the problem with it.
    static func parse(_ query: Substring) -> Result<[String: JSON], BusError> {
        var context: [String: JSON] = [:]
        for entry in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = entry.firstIndex(of: "="),
                  let key = String(entry[..<equals]).removingPercentEncoding, !key.isEmpty,
                  let value = String(entry[entry.index(after: equals)...]).removingPercentEncoding else {
                return .failure(BusError(.badFrame, "the service name's context must be key=value entries separated by & (percent-encoded), got \"\(entry.prefix(64))\""))
            }
            guard context[key] == nil else { return .failure(BusError(.badFrame, "the service name's context names \"\(key.prefix(64))\" twice")) }
            context[key] = .string(value)
        }
        return .success(context)
    }
}
