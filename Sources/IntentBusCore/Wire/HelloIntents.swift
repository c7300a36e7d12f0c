/// HELLO's `intents` (docs/protocol.md §5.1): each entry `{"name": …, "style": …}`, or a bare
/// name (plain). The SDK writes it and the host, `intentbus validate` and `intentbus describe`
/// read it; the rules live here once, so that the three cannot drift apart.
package enum HelloIntents {
    /// One entry as the SDKs write it.
    package static func entry(_ name: String, _ style: HandlerStyle, codes: [String]? = nil,
                              phases: [LegacyPhase] = []) -> JSON {
        var o: [String: JSON] = ["name": .string(name), "style": .string(style.rawValue)]
        if let codes { o["codes"] = .array(codes.map { .string($0) }) }
        if !phases.isEmpty { o["phases"] = .array(phases.map { .string($0.rawValue) }) }
        return .object(o)
    }

    /// Most response codes one entry may list; more are not read.
    package static let maximumCodes = 256

    /// The response codes each legacy entry says its handler can answer with (`codes`, the
    /// cases of its response-code enum), by intent; entries without them are left out, and
    /// only strings of at most 128 bytes are read. `intentbus validate` compares them with
    /// the definitions.
    package static func codes(_ intents: JSON?) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for entry in intents?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue, let list = entry["codes"]?.arrayValue else { continue }
            out[name] = list.prefix(maximumCodes).compactMap(\.stringValue).filter { !$0.isEmpty && $0.utf8.count <= 128 }
        }
        return out
    }

    /// The legacy phases each entry lists under `phases` (docs/protocol.md §8.9). Words
    /// this host does not know are skipped, so that a newer SDK's HELLO is still read; an
    /// entry without `phases` (an SDK before one-trip) gets none, and the phased flow.
    package static func phases(_ intents: JSON?) -> [String: Set<LegacyPhase>] {
        var phases: [String: Set<LegacyPhase>] = [:]
        for entry in intents?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue, let words = entry["phases"]?.arrayValue else { continue }
            phases[name] = Set(words.compactMap { $0.stringValue.flatMap(LegacyPhase.init(rawValue:)) })
        }
        return phases
    }

    /// The style of each declared intent. An entry without `style` is plain; an entry that
    /// is neither a name nor an object with a string `name` declares nothing (as before:
    /// the manifest's `IntentsSupported` check then names what is missing).
    package static func styles(_ intents: JSON?) throws(HelloIntentsError) -> [String: HandlerStyle] {
        var styles: [String: HandlerStyle] = [:]
        for entry in intents?.arrayValue ?? [] {
            if let name = entry.stringValue {
                styles[name] = .plain
            } else if let name = entry["name"]?.stringValue {
                let raw = entry["style"]?.stringValue ?? HandlerStyle.plain.rawValue
                guard let style = HandlerStyle(rawValue: raw) else {
                    throw HelloIntentsError(intent: name, style: raw)
                }
                styles[name] = style
            }
        }
        return styles
    }
}

/// A HELLO entry with a style the protocol does not have; the host refuses the HELLO with
/// `bad_metadata` and this message.
package struct HelloIntentsError: Error, Equatable, CustomStringConvertible {
    package let intent: String
    package let style: String

    package init(intent: String, style: String) {
        self.intent = intent
        self.style = style
    }

    package var description: String {
        "intent \(intent) has unknown style \"\(style)\" (plain, legacy or new)"
    }
}
