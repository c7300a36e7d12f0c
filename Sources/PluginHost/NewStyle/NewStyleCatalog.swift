import Foundation
import IntentBus

/// One declared parameter of a new-style intent (HELLO metadata).
struct ParameterDecl {
    let name: String
    let title: String
    /// integer, decimal, boolean, string, date, url, entity or enum.
    let type: String
    let entity: String?
    let enumName: String?
    let optional: Bool
    let defaultValue: JSON?
    let min: JSON?
    let max: JSON?
    let requestValueDialog: String?
    let description: String?
    /// Takes a list of values (`"multiple": true`; Swift `[ProjectEntity]`).
    var multiple = false
}

/// One declared new-style intent.
struct IntentDecl {
    let identifier: String
    let title: String
    let authentication: String
    let migratedFrom: String?
    let parameters: [ParameterDecl]
}

/// A declared entity type and what its query can do.
struct EntityDecl {
    let name: String
    let typeDisplayName: String
    let matching: Bool
    let all: Bool
}

/// A declared enum: its case values and display names.
struct EnumDecl {
    let name: String
    let cases: [(value: String, title: String)]
    /// The type's name for people (`type_display_name`); the name when not given.
    var typeDisplayName = ""
}

/// A plugin's new-style declarations, parsed from HELLO `metadata.new_style` and checked
/// the way App Intents' metadata extractor checks them at build time.
struct NewStyleCatalog {
    var intents: [String: IntentDecl] = [:]
    var entities: [String: EntityDecl] = [:]
    var enums: [String: EnumDecl] = [:]
    /// Legacy intent name → the identifier of the new-style intent that replaces it.
    var migrations: [String: String] = [:]
    /// Assistant schema name → the identifier of the intent implementing it (AssistantSchema).
    var schemas: [String: String] = [:]

    static let parameterTypes: Set<String> = ["integer", "decimal", "boolean", "string", "date", "url", "entity", "enum"]
    static let authenticationPolicies = Set(AuthenticationPolicy.allCases.map(\.rawValue))

    /// The intent a request for `name` runs, and the legacy name when it is a migration.
    func lookup(_ name: String) -> (IntentDecl, migratedFrom: String?)? {
        if let decl = intents[name] { return (decl, nil) }
        if let id = migrations[name], let decl = intents[id] { return (decl, name) }
        if let id = schemas[name], let decl = intents[id] { return (decl, nil) }
        return nil
    }

    /// Parses and checks a HELLO body. Returns the catalog and every problem found, each
    /// a sentence naming the intent, parameter or type it is about.
    static func parse(hello: JSON) -> (NewStyleCatalog, [String]) {
        var catalog = NewStyleCatalog()
        var problems: [String] = []
        var helloStyles: [String: String] = [:]
        for entry in hello["intents"]?.arrayValue ?? [] {
            if let name = entry["name"]?.stringValue { helloStyles[name] = entry["style"]?.stringValue ?? "plain" }
        }
        let section = hello["metadata"]?["new_style"]
        let declaresNew = helloStyles.values.contains("new")
        guard let section, !section.isNull else {
            if declaresNew {
                let names = helloStyles.filter { $0.value == "new" }.keys.sorted().joined(separator: ", ")
                problems.append("\(names) declared with style new, but HELLO metadata has no new_style section describing them")
            }
            return (catalog, problems)
        }
        guard section.objectValue != nil else { return (catalog, ["metadata.new_style must be a JSON object"]) }

        // Entities and enums first: parameters refer to them.
        for (i, e) in (section["entities"]?.arrayValue ?? []).enumerated() {
            guard let name = e["name"]?.stringValue, !name.isEmpty else {
                problems.append("entity #\(i + 1) has no name"); continue
            }
            if catalog.entities[name] != nil { problems.append("two entity types named \(name)"); continue }
            let display = e["type_display_name"]?.stringValue ?? ""
            if display.isEmpty { problems.append("entity type \(name) has no type display name") }
            let query = e["query"] ?? .null
            if query.objectValue == nil {
                problems.append("entity type \(name) has no query: entities(for: ids) is required so that stored ids can be resolved")
            } else if query["ids"]?.boolValue != true {
                problems.append("entity type \(name)'s query can't look entities up by id (query.ids must be true)")
            }
            catalog.entities[name] = EntityDecl(name: name, typeDisplayName: display,
                                                matching: query["matching"]?.boolValue == true,
                                                all: query["all"]?.boolValue == true)
        }
        for (i, e) in (section["enums"]?.arrayValue ?? []).enumerated() {
            guard let name = e["name"]?.stringValue, !name.isEmpty else {
                problems.append("enum #\(i + 1) has no name"); continue
            }
            var cases: [(String, String)] = []
            for c in e["cases"]?.arrayValue ?? [] {
                guard let value = c["value"]?.stringValue, !value.isEmpty else {
                    problems.append("enum \(name) has a case without a value"); continue
                }
                if cases.contains(where: { $0.0 == value }) { problems.append("enum \(name) has two cases \"\(value)\"") }
                let title = c["title"]?.stringValue ?? ""
                if title.isEmpty { problems.append("enum \(name): case \(value) has no display name") }
                cases.append((value, title))
            }
            if cases.isEmpty { problems.append("enum \(name) has no cases") }
            catalog.enums[name] = EnumDecl(name: name, cases: cases, typeDisplayName: e["type_display_name"]?.stringValue ?? "")
        }

        for (i, entry) in (section["intents"]?.arrayValue ?? []).enumerated() {
            guard let id = entry["identifier"]?.stringValue, !id.isEmpty else {
                problems.append("intent #\(i + 1) has no identifier"); continue
            }
            if catalog.intents[id] != nil {
                problems.append("two intents with the same identifier \(id)"); continue
            }
            let title = entry["title"]?.stringValue ?? ""
            if title.isEmpty { problems.append("intent \(id) has no title") }
            let auth = entry["authentication"]?.stringValue ?? "always_allowed"
            if !authenticationPolicies.contains(auth) {
                problems.append("intent \(id): authentication \"\(auth)\" is not one of \(AuthenticationPolicy.names)")
            }
            if helloStyles[id] != "new" {
                problems.append("intent \(id) is described in metadata but the plugin does not handle it with style new")
            }
            var params: [ParameterDecl] = []
            for (j, p) in (entry["parameters"]?.arrayValue ?? []).enumerated() {
                if let decl = parseParameter(p, index: j, intent: id, catalog: catalog, problems: &problems) {
                    if params.contains(where: { $0.name == decl.name }) {
                        problems.append("\(id): two parameters named \(decl.name)")
                    } else {
                        params.append(decl)
                    }
                }
            }
            var migrated: String?
            if let legacy = entry["migrated_from"]?.stringValue, !legacy.isEmpty {
                migrated = legacy
                if let other = catalog.migrations[legacy] {
                    problems.append("both \(other) and \(id) migrate \(legacy); one legacy intent has one replacement")
                } else if helloStyles[legacy] != "new" {
                    problems.append("intent \(id) migrates \(legacy), but the plugin does not route \(legacy) to it (style new)")
                }
                catalog.migrations[legacy] = id
            }
            catalog.intents[id] = IntentDecl(identifier: id, title: title, authentication: auth,
                                             migratedFrom: migrated, parameters: params)
            if let schema = entry["schema"] {
                problems += catalog.addSchema(schema, of: catalog.intents[id]!, helloStyles: helloStyles)
            }
        }
        for (legacy, id) in catalog.migrations where catalog.intents[legacy] != nil {
            problems.append("intent \(id) migrates \(legacy), which is itself a new-style intent")
        }
        for (name, style) in helloStyles.sorted(by: { $0.key < $1.key })
        where style == "new" && catalog.intents[name] == nil && catalog.migrations[name] == nil && catalog.schemas[name] == nil {
            problems.append("intent \(name) is handled with style new but metadata.new_style.intents does not describe it")
        }
        return (catalog, problems)
    }

    private static func parseParameter(_ p: JSON, index: Int, intent: String, catalog: NewStyleCatalog,
                                       problems: inout [String]) -> ParameterDecl? {
        guard let name = p["name"]?.stringValue, !name.isEmpty else {
            problems.append("\(intent): parameter #\(index + 1) has no name"); return nil
        }
        let at = "\(intent).\(name)"
        let title = p["title"]?.stringValue ?? ""
        if title.isEmpty { problems.append("\(at): parameter has no title") }
        let type = p["type"]?.stringValue ?? ""
        guard parameterTypes.contains(type) else {
            problems.append("\(at): unknown type \"\(type)\" (integer, decimal, boolean, string, date, url, entity or enum)"); return nil
        }
        let entity = p["entity"]?.stringValue
        let enumName = p["enum"]?.stringValue
        if type == "entity" {
            if let entity {
                if catalog.entities[entity] == nil { problems.append("\(at): entity type \(entity) is not declared in entities") }
            } else {
                problems.append("\(at): an entity parameter names its entity type (\"entity\")")
            }
        }
        if type == "enum" {
            if let enumName {
                if catalog.enums[enumName] == nil { problems.append("\(at): enum \(enumName) is not declared in enums") }
            } else {
                problems.append("\(at): an enum parameter names its enum (\"enum\")")
            }
        }
        var decl = ParameterDecl(name: name, title: title, type: type, entity: entity, enumName: enumName,
                                 optional: p["optional"]?.boolValue == true, defaultValue: p["default"].flatMap { $0.isNull ? nil : $0 },
                                 min: p["min"], max: p["max"], requestValueDialog: p["request_value_dialog"]?.stringValue,
                                 description: p["description"]?.stringValue)
        if let multiple = p["multiple"], !multiple.isNull {
            if let flag = multiple.boolValue { decl.multiple = flag } else { problems.append("\(at): multiple must be true or false") }
        }
        if decl.min != nil || decl.max != nil {
            if type != "integer" && type != "decimal" {
                problems.append("\(at): a range needs a numeric type, not \(type)"
                                + (type == "date" ? " (date parameters have no ranges: a bound on a date needs the user's time zone and today's date, which the host does not have; check dates in perform())"
                                   : type == "url" ? " (date and url parameters have no ranges)" : ""))
            } else if (decl.min.map { $0.doubleValue == nil } ?? false) || (decl.max.map { $0.doubleValue == nil } ?? false) {
                problems.append("\(at): range bounds must be numbers")
            } else if let lo = decl.min?.doubleValue, let hi = decl.max?.doubleValue, lo > hi {
                problems.append("\(at): range \(decl.rangeText) is empty (min > max)")
            }
        }
        if let d = decl.defaultValue {
            switch ParameterCheck.check(d, decl, catalog: catalog, checkRange: false) {
            case .failure(let why): problems.append("\(at): default \(d.canonicalString) is invalid: \(why)")
            case .success(let value):
                if !ParameterCheck.inRange(value, decl) {
                    problems.append("\(at): default \(value.displayText) is outside its range \(decl.rangeText)")
                }
            }
        }
        return decl
    }
}

extension ParameterDecl {
    /// "5…180", "≥ 5", "≤ 180".
    var rangeText: String {
        switch (min, max) {
        case let (lo?, hi?): "\(lo.displayText)…\(hi.displayText)"
        case let (lo?, nil): "≥ \(lo.displayText)"
        case let (nil, hi?): "≤ \(hi.displayText)"
        default: "any"
        }
    }
}

/// The metadata checks, for `intentbus validate` (the host applies the same at HELLO).
public enum NewStyleMetadata {
    /// Every problem in a HELLO body's new-style declarations; empty when it is valid.
    public static func problems(inHello hello: JSON) -> [String] {
        NewStyleCatalog.parse(hello: hello).1
    }
}
