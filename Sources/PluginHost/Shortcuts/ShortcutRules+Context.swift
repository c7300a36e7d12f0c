import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata
import IntentBusSentences

/// An app shortcut's `requires_context` and `excludes_context` (docs/shortcuts.md,
/// "Phrases for one place"): which request contexts (docs/protocol.md §4.1) its phrases
/// match in, with hassil's meaning (docs/sentences.md).
extension ShortcutRules {
    /// At most this many values in one list of allowed or excluded values.
    static let maximumContextChoices = 50

    /// The conditions of shortcut `s`, or the problems with them. `parameters`: the
    /// intent's parameter names, the only slots a context value may be copied into.
    static func contextConditions(_ s: JSON, parameters: [String]) -> (requires: [String: JSON], excludes: [String: JSON], problems: [String]) {
        var problems: [String] = []
        let requires = conditions(s["requires_context"], field: "requires_context", parameters: parameters, problems: &problems)
        let excludes = conditions(s["excludes_context"], field: "excludes_context", parameters: nil, problems: &problems)
        return (requires, excludes, problems)
    }

    /// `parameters` nil: no `{value, slot}` form (excludes_context has none).
    private static func conditions(_ raw: JSON?, field: String, parameters: [String]?, problems: inout [String]) -> [String: JSON] {
        guard let raw, !raw.isNull else { return [:] }
        guard case .object(let fields) = raw else {
            problems.append("\(field) must be an object of context keys, got \(raw.typeName)")
            return [:]
        }
        if fields.count > RequestContext.maximumEntries {
            problems.append("\(field) names \(fields.count) keys; a request context has at most \(RequestContext.maximumEntries)")
        }
        for key in fields.keys.sorted() {
            let at = "\(field).\(key)"
            if key.isEmpty || key.utf8.count > RequestContext.maximumKeyLength {
                problems.append("\(field): a key must be 1 to \(RequestContext.maximumKeyLength) bytes")
            }
            var value = fields[key]!
            if case .object(let o) = value, let parameters {
                // {value, slot: true | "name"}: the context value fills a parameter.
                let slot: String? = o["slot"] == .bool(true) ? key : o["slot"]?.stringValue
                if let slot, !parameters.contains(slot) {
                    problems.append("\(at): slot \(slot) is not a parameter of the intent (it has: \(parameters.joined(separator: ", ")))")
                } else if slot == nil, o["slot"] != nil {
                    problems.append("\(at): slot must be true or a parameter's name")
                }
                if let extra = o.keys.sorted().first(where: { $0 != "value" && $0 != "slot" }) {
                    problems.append("\(at): unknown key \(extra) (value and slot are taken)")
                }
                value = o["value"] ?? .null
            }
            if let problem = valueProblem(value, nullAllowed: parameters != nil) { problems.append("\(at) \(problem)") }
        }
        return fields
    }

    private static func valueProblem(_ value: JSON, nullAllowed: Bool) -> String? {
        switch value {
        case .string(let text) where text.utf8.count > RequestContext.maximumValueLength:
            return "is longer than \(RequestContext.maximumValueLength) bytes"
        case .string, .int, .double, .bool: return nil
        case .null: return nullAllowed ? nil : "must name a value (null excludes nothing)"
        case .array(let items):
            guard !items.isEmpty, items.count <= maximumContextChoices else {
                return "must list 1 to \(maximumContextChoices) values, got \(items.count)"
            }
            if let bad = items.first(where: { valueProblem($0, nullAllowed: false) != nil || $0.arrayValue != nil }) {
                return "lists \(bad.typeName) \(bad.canonicalString.prefix(40)); values are strings, numbers or booleans"
            }
            return nil
        case .object:
            return "must be a string, a number, a boolean, null or a list of values"
        }
    }
}

/// An app shortcut's `lists` (docs/shortcuts.md, "Lists for a slot"): a list per parameter,
/// so that `${parameter}` takes only its values, or a number of its range, whatever the
/// parameter's type.
extension ShortcutRules {
    /// At most this many lists per shortcut.
    static let maximumLists = 8

    /// The lists of shortcut `s` by parameter name, or the problems with them.
    static func declaredLists(_ s: JSON, parameters: [String]) -> (lists: [String: SlotList], problems: [String]) {
        guard let raw = s["lists"], !raw.isNull else { return ([:], []) }
        guard case .object(let fields) = raw, fields.count <= maximumLists else {
            return ([:], ["lists must be an object of at most \(maximumLists) lists, by parameter name"])
        }
        var lists: [String: SlotList] = [:], problems: [String] = []
        for name in fields.keys.sorted() {
            guard parameters.contains(name) else {
                problems.append("lists.\(name): \(name) is not a parameter of the intent (it has: \(parameters.joined(separator: ", ")))")
                continue
            }
            do {
                lists[name] = try SlotList(json: fields[name]!, at: SentenceLocation(file: "lists.\(name)", line: 1, column: 1))
            } catch {
                problems.append("lists.\(name): \(error.message)")
            }
        }
        return (lists, problems)
    }
}
