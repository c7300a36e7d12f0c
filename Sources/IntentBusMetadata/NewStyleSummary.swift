import IntentBusCore

/// An intent's parameter summary (App Intents' `parameterSummary`): a sentence with
/// `${parameter}` slots, such as `"Fokus-Session von ${minutes} Minuten starten"`, the
/// parameters shown beside it, and `When` branches chosen by a parameter's value. The
/// metadata entry `intents[].summary` (docs/protocol.md §9.1); the host fills it with a
/// request's values in its questions and `intentbus describe` shows it.
public indirect enum NewStyleSummary: Sendable, Equatable {
    /// `Summary("…") { \.$other }`: the sentence and the parameters listed beside it.
    case sentence(String, parameters: [String])
    /// `When(\.$p, .equalTo, v) { … } otherwise: { … }`.
    case when(Condition, then: NewStyleSummary, otherwise: NewStyleSummary?)

    /// What a `When` compares.
    public struct Condition: Sendable, Equatable {
        public enum Comparison: String, Sendable, CaseIterable {
            case equalTo = "equal_to", notEqualTo = "not_equal_to", hasAnyValue = "has_any_value", hasNoValue = "has_no_value"
        }
        public var parameter: String
        public var comparison: Comparison
        /// The value compared with (equal_to, not_equal_to), in wire form.
        public var value: JSON?

        public init(parameter: String, comparison: Comparison, value: JSON? = nil) {
            self.parameter = parameter
            self.comparison = comparison
            self.value = value
        }

        /// Whether `values` (a request's parameters by name) meet the condition.
        public func holds(_ values: [String: JSON]) -> Bool {
            let given = values[parameter].flatMap { $0.isNull ? nil : $0 }
            switch comparison {
            case .hasAnyValue: return given != nil
            case .hasNoValue: return given == nil
            case .equalTo: return given.map { Self.same($0, value) } ?? false
            case .notEqualTo: return !(given.map { Self.same($0, value) } ?? false)
            }
        }

        /// Values compared as the host normalises them: numbers by value, entities by id.
        private static func same(_ a: JSON, _ b: JSON?) -> Bool {
            guard let b else { return false }
            if let x = a.doubleValue, let y = b.doubleValue { return x == y }
            let id = { (v: JSON) in v["id"]?.displayText ?? v.displayText }
            return id(a) == id(b)
        }
    }

    /// The metadata entry.
    public var json: JSON {
        switch self {
        case .sentence(let text, let parameters):
            var o: [String: JSON] = ["text": .string(text)]
            if !parameters.isEmpty { o["parameters"] = .array(parameters.map { .string($0) }) }
            return .object(o)
        case .when(let c, let then, let otherwise):
            var condition: [String: JSON] = ["parameter": .string(c.parameter), "comparison": .string(c.comparison.rawValue)]
            if let value = c.value { condition["value"] = value }
            var o: [String: JSON] = ["when": .object(condition), "then": then.json]
            if let otherwise { o["otherwise"] = otherwise.json }
            return .object(o)
        }
    }

    /// The sentence that applies to `values`; nil when a `When` without `otherwise` does not hold.
    public func sentence(for values: [String: JSON]) -> (text: String, parameters: [String])? {
        switch self {
        case .sentence(let text, let parameters): return (text, parameters)
        case .when(let c, let then, let otherwise):
            return c.holds(values) ? then.sentence(for: values) : otherwise?.sentence(for: values)
        }
    }

    /// Every sentence, in declaration order (for `describe`).
    public var sentences: [String] {
        switch self {
        case .sentence(let text, _): [text]
        case .when(_, let then, let otherwise): then.sentences + (otherwise?.sentences ?? [])
        }
    }

    /// The sentence for `values` with each slot filled: a value by its display text (an
    /// entity by its title), a parameter without one by `[its title]`.
    public func filled(_ values: [String: JSON], titles: [String: String]) -> String? {
        guard let (text, _) = sentence(for: values) else { return nil }
        return Self.slots(in: text).reversed().reduce(text) { out, slot in
            let value = values[slot.name].flatMap { $0.isNull ? nil : $0 }
            let shown = value.map { $0["title"]?.displayText ?? $0.displayText } ?? "[\(titles[slot.name] ?? slot.name)]"
            return out.replacingCharacters(in: slot.range, with: shown)
        }
    }

    /// The `${name}` slots of a sentence, in order.
    public static func slots(in text: String) -> [(name: String, range: Range<String.Index>)] {
        var out: [(String, Range<String.Index>)] = []
        var rest = text.startIndex..<text.endIndex
        while let open = text.range(of: "${", range: rest), let close = text.range(of: "}", range: open.upperBound..<text.endIndex) {
            out.append((String(text[open.upperBound..<close.lowerBound]), open.lowerBound..<close.upperBound))
            rest = close.upperBound..<text.endIndex
        }
        return out
    }
}

extension NewStyleSummary {
    /// Decodes `intents[].summary` of intent `intent`, appending what is wrong to
    /// `problems`: a sentence that is not text, a slot, listed parameter or condition
    /// that names no parameter of the intent, an unknown comparison, nesting deeper than
    /// 8. Nil when it cannot be read at all.
    public static func decode(_ json: JSON, intent: String, parameters: [String], problems: inout [String], depth: Int = 0) -> NewStyleSummary? {
        let at = "\(intent): parameter summary"
        guard depth < 8 else { problems.append("\(at) nests When deeper than 8"); return nil }
        let known = Set(parameters)
        func check(_ name: String, _ what: String) {
            if !known.contains(name) {
                problems.append("\(at) \(what), which is not a parameter of \(intent) (it has: \(parameters.joined(separator: ", ")))")
            }
        }
        if let condition = json["when"] {
            guard let name = condition["parameter"]?.stringValue,
                  let comparison = condition["comparison"]?.stringValue.flatMap(Condition.Comparison.init(rawValue:)) else {
                problems.append("\(at): a When needs \"parameter\" and a \"comparison\" (\(Condition.Comparison.allCases.map(\.rawValue).joined(separator: ", ")))")
                return nil
            }
            check(name, "compares \(name.prefix(80))")
            if (comparison == .equalTo || comparison == .notEqualTo), condition["value"] == nil {
                problems.append("\(at): When \(name) \(comparison.rawValue) needs a \"value\"")
            }
            guard let thenJSON = json["then"],
                  let then = decode(thenJSON, intent: intent, parameters: parameters, problems: &problems, depth: depth + 1) else {
                problems.append("\(at): a When needs a \"then\" summary"); return nil
            }
            let otherwise = json["otherwise"].flatMap { decode($0, intent: intent, parameters: parameters, problems: &problems, depth: depth + 1) }
            return .when(Condition(parameter: name, comparison: comparison, value: condition["value"]), then: then, otherwise: otherwise)
        }
        guard let text = json["text"]?.stringValue, !text.isEmpty else {
            problems.append("\(at) has no text"); return nil
        }
        for slot in slots(in: text) { check(slot.name, "names ${\(slot.name.prefix(80))}") }
        let listed = (json["parameters"]?.arrayValue ?? []).compactMap(\.stringValue)
        for name in listed { check(name, "lists \(name.prefix(80))") }
        return .sentence(text, parameters: listed)
    }
}
