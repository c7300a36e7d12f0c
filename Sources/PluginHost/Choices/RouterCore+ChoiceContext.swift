import Foundation
import IntentBusCore

/// Remembered choices per request context (docs/choices.md "Per context"): with
/// `host.choice_context: satellite`, a request whose context names a satellite is asked,
/// and remembers "always", for that satellite — a kitchen speaker keeps its own default,
/// whichever client (a Wyoming service, an MDP bridge) relays it.
extension RouterCore {
    /// The remembered-choice key of a request: `satellite=kitchen-1` when the manifest's
    /// `choice_context` key is in its context, else the header's client (nil: anyone's).
    func choiceClient(_ options: JSON) -> String? {
        if let key = manifest.host.choiceContext, let value = RequestContext.of(options)[key] {
            return Self.contextChoiceKey(key, value)
        }
        return options["client"]?.stringValue
    }

    /// The key under which a context value's choices are stored (and `ib.choices.set`
    /// with `client` sets them): `key=value`.
    static func contextChoiceKey(_ key: String, _ value: JSON) -> String {
        "\(key)=\(value.stringValue ?? value.canonicalString)"
    }
}
