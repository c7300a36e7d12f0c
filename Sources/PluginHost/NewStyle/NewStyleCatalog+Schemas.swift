import IntentBus

extension NewStyleCatalog {
    /// Records that `intent` implements the assistant schema named by `value` (metadata
    /// `schema`), after checking it: a known schema, implemented once per plugin, routed
    /// to the new-style handler in HELLO, with matching parameters. Returns the problems.
    mutating func addSchema(_ value: JSON, of intent: IntentDecl, helloStyles: [String: String]) -> [String] {
        guard let name = value.stringValue, !name.isEmpty else {
            return ["intent \(intent.identifier): schema must be a schema name (\(AssistantSchema.names))"]
        }
        guard let schema = AssistantSchema.known[name] else {
            return ["intent \(intent.identifier): unknown assistant schema \"\(name.prefix(80))\" (known: \(AssistantSchema.names))"]
        }
        if let other = schemas[name] {
            return ["both \(other) and \(intent.identifier) implement \(name); one plugin implements a schema once"]
        }
        var problems = schema.problems(intent)
        if helloStyles[name] != "new" {
            problems.append("intent \(intent.identifier) implements \(name), but the plugin does not route \(name) to it (style new in HELLO intents)")
        }
        if intents[name] != nil || migrations[name] != nil {
            problems.append("\(name) is a schema and cannot also be an intent identifier or a migrated name")
        }
        schemas[name] = intent.identifier
        return problems
    }
}
