import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata

/// A request's `context` (docs/protocol.md §4.1): what the client knows about where and
/// how it was asked — a satellite's id, its area, the language — as a small flat JSON
/// object. Sentence templates may require or exclude values of it (docs/sentences.md),
/// and the plugin gets it in its delivery header.
///
/// Flat on purpose: a value is a string, a number or a boolean, so that templates compare
/// values, not trees, and a client can't make the host carry (and every plugin parse) a
/// nested document on each request.
enum RequestContext {
    /// At most this many entries.
    static let maximumEntries = 16
    /// A key is 1 … 64 bytes.
    static let maximumKeyLength = 64
    /// A string value is at most 255 bytes.
    static let maximumValueLength = WireProtocol.maxNameLength

    /// The problem with a header's `context` value, or nil when it is acceptable.
    static func problem(_ value: JSON) -> String? {
        guard case .object(let fields) = value else {
            return "header field \"context\" must be a JSON object, got \(value.canonicalString.prefix(40))"
        }
        if fields.count > maximumEntries {
            return "header field \"context\" has \(fields.count) entries; at most \(maximumEntries) are taken"
        }
        for key in fields.keys.sorted() {
            guard !key.isEmpty, key.utf8.count <= maximumKeyLength else {
                return "header field \"context\": a key must be 1 to \(maximumKeyLength) bytes, got \(key.utf8.count)"
            }
            switch fields[key]! {
            case .string(let text) where text.utf8.count > maximumValueLength:
                return "header field \"context\": \"\(key)\" must be at most \(maximumValueLength) bytes, got \(text.utf8.count)"
            case .string, .int, .double, .bool:
                continue
            case let other:
                return "header field \"context\": \"\(key)\" must be a string, a number or a boolean, got \(other.typeName)"
            }
        }
        return nil
    }

    /// Puts a checked header's context into a plugin's delivery header (every style gets
    /// it, under the same name); an empty context is left out.
    static func deliver(from options: JSON, into header: inout [String: JSON]) {
        let context = of(options)
        if !context.isEmpty { header["context"] = .object(context) }
    }

    /// The context of a checked header (`options`), empty when it has none.
    static func of(_ options: JSON) -> [String: JSON] {
        if case .object(let fields)? = options["context"] { return fields }
        return [:]
    }
}
