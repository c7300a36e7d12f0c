import IntentBusCore

/// The state of one `decode`: what is declared so far, by name, and the problems.
struct NewStyleSectionDecoder {
    let helloStyles: [String: String]
    var intents: [String: NewStyleIntent] = [:]
    var entities: [String: NewStyleEntity] = [:]
    var enums: [String: NewStyleEnum] = [:]
    var intentOrder: [String] = [], entityOrder: [String] = [], enumOrder: [String] = []
    var migrations: [String: String] = [:]
    var schemas: [String: String] = [:]
    var problems: [String] = []

    init(helloStyles: [String: String]) { self.helloStyles = helloStyles }

    mutating func entity(_ e: JSON, index i: Int) {
        guard let name = e["name"]?.stringValue, !name.isEmpty else {
            problems.append("entity #\(i + 1) has no name"); return
        }
        if entities[name] != nil { problems.append("two entity types named \(name)"); return }
        let display = e["type_display_name"]?.stringValue ?? ""
        if display.isEmpty { problems.append("entity type \(name) has no type display name (App Intents' rule: every AppEntity has a typeDisplayRepresentation)") }
        let query = e["query"] ?? .null
        if query.objectValue == nil {
            problems.append("entity type \(name) has no query: entities(for: ids) is required so that stored ids can be resolved")
        } else if query["ids"]?.boolValue != true {
            problems.append("entity type \(name)'s query can't look entities up by id (query.ids must be true)")
        }
        var propertyQuery: NewStylePropertyQuery?
        if query["property"]?.boolValue == true {
            propertyQuery = NewStylePropertyQuery.decode(e["property_query"] ?? .null, entity: name, problems: &problems)
        }
        entities[name] = NewStyleEntity(name: name, typeDisplayName: display, ids: query["ids"]?.boolValue == true,
                                        suggested: query["suggested"]?.boolValue == true,
                                        matching: query["matching"]?.boolValue == true,
                                        all: query["all"]?.boolValue == true, propertyQuery: propertyQuery)
        entityOrder.append(name)
    }

    mutating func enumeration(_ e: JSON, index i: Int) {
        guard let name = e["name"]?.stringValue, !name.isEmpty else {
            problems.append("enum #\(i + 1) has no name"); return
        }
        var cases: [NewStyleEnum.Case] = []
        for c in e["cases"]?.arrayValue ?? [] {
            guard let value = c["value"]?.stringValue, !value.isEmpty else {
                problems.append("enum \(name) has a case without a value"); continue
            }
            if cases.contains(where: { $0.value == value }) { problems.append("enum \(name) has two cases \"\(value)\"") }
            let title = c["title"]?.stringValue ?? ""
            if title.isEmpty { problems.append("enum \(name): case \(value) has no display name") }
            cases.append(.init(value: value, title: title, synonyms: Self.synonyms(c["synonyms"], of: "enum \(name): case \(value)", problems: &problems)))
        }
        if cases.isEmpty { problems.append("enum \(name) has no cases") }
        if enums[name] == nil { enumOrder.append(name) }
        enums[name] = NewStyleEnum(name: name, typeDisplayName: e["type_display_name"]?.stringValue ?? "", cases: cases)
    }

    /// A display representation's `synonyms`: at most 16 non-empty strings of at most 200
    /// characters; a problem for anything else.
    static func synonyms(_ value: JSON?, of what: String, problems: inout [String]) -> [String] {
        guard let value, value != .null else { return [] }
        guard let items = value.arrayValue, items.count <= 16 else {
            problems.append("\(what): synonyms must be an array of at most 16 strings"); return []
        }
        var out: [String] = []
        for item in items {
            guard let s = item.stringValue, !s.isEmpty, s.count <= 200 else {
                problems.append("\(what): a synonym must be a string of 1 to 200 characters"); continue
            }
            out.append(s)
        }
        return out
    }

    mutating func intent(_ entry: JSON, index i: Int, checks: some NewStyleHostChecks) {
        guard let id = entry["identifier"]?.stringValue, !id.isEmpty else {
            problems.append("intent #\(i + 1) has no identifier"); return
        }
        if intents[id] != nil {
            problems.append("two intents with the same identifier \(id)"); return
        }
        let title = entry["title"]?.stringValue ?? ""
        if title.isEmpty { problems.append("intent \(id) has no title") }
        let auth = entry["authentication"]?.stringValue ?? IntentAuthenticationPolicy.alwaysAllowed.rawValue
        let policy = IntentAuthenticationPolicy(rawValue: auth)
        if policy == nil {
            problems.append("intent \(id): authentication \"\(auth)\" is not one of \(IntentAuthenticationPolicy.names)")
        }
        if helloStyles[id] != "new" {
            problems.append("intent \(id) is described in metadata but the plugin does not handle it with style new")
        }
        var params: [NewStyleParameter] = []
        for (j, p) in (entry["parameters"]?.arrayValue ?? []).enumerated() {
            guard let decl = NewStyleParameter.decode(p, index: j, intent: id, entities: entities, enums: enums,
                                                      checks: checks, problems: &problems) else { continue }
            if params.contains(where: { $0.name == decl.name }) {
                problems.append("\(id): two parameters named \(decl.name)")
            } else {
                params.append(decl)
            }
        }
        var migrated: String?
        if let legacy = entry["migrated_from"]?.stringValue, !legacy.isEmpty {
            migrated = legacy
            if let other = migrations[legacy] {
                problems.append("both \(other) and \(id) migrate \(legacy); one legacy intent has one replacement")
            } else if helloStyles[legacy] != "new" {
                problems.append("intent \(id) migrates \(legacy), but the plugin does not route \(legacy) to it (style new)")
            }
            migrations[legacy] = id
        }
        let summary = entry["summary"].flatMap { json in
            json.isNull ? nil : NewStyleSummary.decode(json, intent: id, parameters: params.map(\.name), problems: &problems)
        }
        var discoverable = true
        if let flag = entry["discoverable"], !flag.isNull {
            if let b = flag.boolValue { discoverable = b } else { problems.append("intent \(id): discoverable must be true or false") }
        }
        // A policy that is not one of the three rejects the HELLO; the strictest stands in.
        var intent = NewStyleIntent(identifier: id, title: title, description: entry["description"]?.stringValue,
                                    category: entry["category"]?.stringValue,
                                    authentication: policy ?? .requiresAuthentication, migratedFrom: migrated,
                                    parameters: params, summary: summary, discoverable: discoverable)
        intents[id] = intent  // before the schema: a schema may not be named like an intent
        intentOrder.append(id)
        if let schema = entry["schema"] {
            intent.schema = addSchema(schema, of: intent, checks: checks)
            intents[id] = intent
        }
    }

    /// Records that `intent` implements the assistant schema named by `value`, after
    /// checking it: a known schema, implemented once per plugin, routed to the new-style
    /// handler in HELLO, with matching parameters. Returns the name when recorded.
    private mutating func addSchema(_ value: JSON, of intent: NewStyleIntent, checks: some NewStyleHostChecks) -> String? {
        guard let name = value.stringValue, !name.isEmpty else {
            problems.append("intent \(intent.identifier): schema must be a schema name (\(checks.schemaNames))"); return nil
        }
        guard let schemaProblems = checks.schemaProblems(name, of: intent) else {
            problems.append("intent \(intent.identifier): unknown assistant schema \"\(name.prefix(80))\" (known: \(checks.schemaNames))")
            return nil
        }
        if let other = schemas[name] {
            problems.append("both \(other) and \(intent.identifier) implement \(name); one plugin implements a schema once")
            return nil
        }
        problems += schemaProblems
        if helloStyles[name] != "new" {
            problems.append("intent \(intent.identifier) implements \(name), but the plugin does not route \(name) to it (style new in HELLO intents)")
        }
        if intents[name] != nil || migrations[name] != nil {
            problems.append("\(name) is a schema and cannot also be an intent identifier or a migrated name")
        }
        schemas[name] = intent.identifier
        return name
    }

    /// The checks across the whole section, once every intent is read.
    mutating func finish() {
        for (legacy, id) in migrations where intents[legacy] != nil {
            problems.append("intent \(id) migrates \(legacy), which is itself a new-style intent")
        }
        for (name, style) in helloStyles.sorted(by: { $0.key < $1.key })
        where style == "new" && intents[name] == nil && migrations[name] == nil && schemas[name] == nil {
            problems.append("intent \(name) is handled with style new but metadata.new_style.intents does not describe it")
        }
    }
}
