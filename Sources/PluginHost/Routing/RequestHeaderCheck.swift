import IntentBusCore

/// The checks on a client's REQUEST header (docs/protocol.md §4.1), made where the header
/// enters the host: each known field must have its type and lie in its range, so that no
/// number from a client reaches the deadline arithmetic unchecked. Unknown fields are
/// ignored, for clients newer than the host.
enum RequestHeaderCheck {
    /// The longest `timeout_ms` a request may ask for: 24 hours.
    static let maximumTimeoutMs: Int64 = 86_400_000
    /// Longest `plugin` and `client` values, in bytes (as for ids and intent names).
    static let maximumNameLength = WireProtocol.maxNameLength
    /// Longest `locale` (a BCP 47 tag such as `de-DE`), in bytes.
    static let maximumLocaleLength = 35
    /// Longest `credential`, in bytes.
    static let maximumCredentialLength = 1_024

    /// The problem with `header`, or nil when it is acceptable.
    static func problem(_ header: JSON) -> String? {
        guard case .object(let fields) = header else { return "the header (frame 4) must be a JSON object" }
        if let timeout = fields["timeout_ms"] {
            guard case .int(let ms) = timeout, ms >= 1, ms <= maximumTimeoutMs else {
                return "header field \"timeout_ms\" must be an integer from 1 to \(maximumTimeoutMs) (24 hours), got \(timeout.canonicalString.prefix(40))"
            }
        }
        for (field, limit) in [("plugin", maximumNameLength), ("client", maximumNameLength),
                               ("credential", maximumCredentialLength), ("choice", 16),
                               ("locale", maximumLocaleLength)] {
            guard let value = fields[field] else { continue }
            guard case .string(let text) = value else {
                return "header field \"\(field)\" must be a string, got \(value.canonicalString.prefix(40))"
            }
            if text.utf8.count > limit {
                return "header field \"\(field)\" must be at most \(limit) bytes, got \(text.utf8.count)"
            }
        }
        if let context = fields["context"], let problem = RequestContext.problem(context) { return problem }
        if let runKey = fields["run_key"], let problem = RunKey.problem(runKey) { return problem }
        if let remember = fields["remember"], remember.boolValue == nil {
            return "header field \"remember\" must be true or false, got \(remember.canonicalString.prefix(40))"
        }
        return nil
    }
}
