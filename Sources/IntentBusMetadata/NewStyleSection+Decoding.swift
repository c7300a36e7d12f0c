import IntentBusCore

extension NewStyleSection {
    /// What decoding a HELLO found: the declarations that decoded, which legacy names
    /// migrate to which intent and which schemas which intent implements, and every
    /// problem, each a sentence naming the intent, parameter or type it is about, in the
    /// order of the declarations (docs/protocol.md §9.2). The HELLO is valid when
    /// `problems` is empty.
    public struct Decoded: Sendable {
        public var section = NewStyleSection()
        /// Legacy intent name → the identifier of the new-style intent that replaces it.
        public var migrations: [String: String] = [:]
        /// Assistant schema name → the identifier of the intent implementing it.
        public var schemas: [String: String] = [:]
        public var problems: [String] = []
    }

    /// Decodes and checks HELLO `metadata.new_style` against the HELLO's `intents` (which
    /// must route every described intent, migrated name and schema with style `new`), the
    /// way App Intents' metadata extractor checks declarations at build time. `checks`
    /// adds what the host knows (defaults' values, assistant schemas). Unknown keys are
    /// ignored; `shortcuts` are decoded as they are (`NewStyleShortcut(json:)`) and checked
    /// by the host's shortcut rules (PluginHost/Shortcuts/ShortcutRules.swift).
    public static func decode(hello: JSON, checks: some NewStyleHostChecks) -> Decoded {
        var out = Decoded()
        var helloStyles: [String: String] = [:]
        for entry in hello["intents"]?.arrayValue ?? [] {
            if let name = entry["name"]?.stringValue { helloStyles[name] = entry["style"]?.stringValue ?? "plain" }
        }
        guard let section = hello["metadata"]?["new_style"], !section.isNull else {
            let names = helloStyles.filter { $0.value == "new" }.keys.sorted()
            if !names.isEmpty {
                out.problems.append("\(names.joined(separator: ", ")) declared with style new, but HELLO metadata has no new_style section describing them")
            }
            return out
        }
        guard section.objectValue != nil else {
            out.problems = ["metadata.new_style must be a JSON object"]
            return out
        }
        var decoder = NewStyleSectionDecoder(helloStyles: helloStyles)
        // Entities and enums first: parameters refer to them.
        for (i, e) in (section["entities"]?.arrayValue ?? []).enumerated() { decoder.entity(e, index: i) }
        for (i, e) in (section["enums"]?.arrayValue ?? []).enumerated() { decoder.enumeration(e, index: i) }
        for (i, entry) in (section["intents"]?.arrayValue ?? []).enumerated() {
            decoder.intent(entry, index: i, checks: checks)
        }
        decoder.finish()
        out.section = NewStyleSection(version: Int(section["version"]?.intValue ?? 1),
                                      intents: decoder.intentOrder.compactMap { decoder.intents[$0] },
                                      entities: decoder.entityOrder.compactMap { decoder.entities[$0] },
                                      enums: decoder.enumOrder.compactMap { decoder.enums[$0] },
                                      shortcuts: (section["shortcuts"]?.arrayValue ?? []).compactMap(NewStyleShortcut.init(json:)))
        out.migrations = decoder.migrations
        out.schemas = decoder.schemas
        out.problems = decoder.problems
        return out
    }
}
