import Foundation
import IntentBusCore

/// The run key of a request (docs/protocol.md §4.1 and §5.2, docs/scale-out.md "Run once"):
/// what lets a plugin connected to several hosts see that a request resent to another
/// host after `host_lost` is the one it already ran.
///
/// The host ids a plugin sees are each host's own, and a client's request id is unique
/// only among that client's open requests (two clients may both send `r1`), so neither
/// can tell a resend from a new request. The client makes a key per request (`run_key`
/// in its header, a UUID) and sends it again with the resend; the host scopes it by who
/// sent it (the authenticated client name, else the `client` header) and hashes the two,
/// so that one client's key can never answer another client's request, and every plugin
/// gets a key of one length (64 hex digits).
enum RunKey {
    /// The client's `run_key` is 1 … 128 bytes.
    static let maximumLength = 128

    /// The problem with a header's `run_key` value, or nil when it is acceptable.
    static func problem(_ value: JSON) -> String? {
        guard case .string(let text) = value else {
            return "header field \"run_key\" must be a string, got \(value.canonicalString.prefix(40))"
        }
        guard !text.isEmpty, text.utf8.count <= maximumLength else {
            return "header field \"run_key\" must be 1 to \(maximumLength) bytes, got \(text.utf8.count)"
        }
        return nil
    }

    /// The key a plugin gets for a checked header (`options`), or nil when the client
    /// gave none.
    static func of(_ options: JSON) -> String? {
        guard let key = options["run_key"]?.stringValue, !key.isEmpty else { return nil }
        let scope = options["authenticated"]?.stringValue.map { "authenticated:\($0)" }
            ?? options["client"]?.stringValue.map { "client:\($0)" } ?? "anonymous"
        var hash = SHA256()
        // The scope can't contain a NUL that would let two pairs meet: NUL ends it.
        hash.update(Data(scope.utf8) + Data([0]) + Data(key.utf8))
        return hash.finish()
    }

    /// Puts the run key into a plugin's delivery header (the one delivery that runs the
    /// request: plain, legacy `handle`, new-style perform); nothing when there is none.
    static func deliver(from options: JSON, into header: inout [String: JSON]) {
        if let key = of(options) { header["run_key"] = .string(key) }
    }
}
