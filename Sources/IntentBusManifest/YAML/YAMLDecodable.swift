import Foundation

/// A value that can be read from a YAML node, reporting to a `YAMLDecodingContext`
/// instead of throwing so that decoding goes on after a problem.
///
/// Conformances here: `String`, `Int`, `Double`, `Bool`, `Duration`, arrays and
/// string-keyed dictionaries of decodable values, `Marked` (a value with its mark) and
/// `YAMLNode` itself (no conversion).
package protocol YAMLDecodable {
    /// What a valid value looks like, for messages: "a string", "an integer".
    static var yamlExpectation: String { get }

    /// Reads `node`, or reports to `context` why it can't and returns nil.
    static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> Self?
}

extension String: YAMLDecodable {
    package static var yamlExpectation: String { "a string" }

    /// Any non-null scalar is accepted as its text: `id: 42` and `name: true` read as
    /// `"42"` and `"true"`, which is what someone writing a name means.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> String? {
        guard let scalar = node.scalar, !node.isNull else {
            context.typeMismatch(expected: yamlExpectation, got: node)
            return nil
        }
        return scalar.text
    }
}

extension Int: YAMLDecodable {
    package static var yamlExpectation: String { "an integer" }

    /// Plain (unquoted) integers only: `"10"` is a string, not a number.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> Int? {
        guard node.isUntypedPlainScalar, let text = node.scalar?.text, let value = Int(yamlCoreText: text) else {
            context.typeMismatch(expected: yamlExpectation, got: node)
            return nil
        }
        return value
    }
}

extension Double: YAMLDecodable {
    package static var yamlExpectation: String { "a number" }

    /// Plain (unquoted) integers and decimals.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> Double? {
        guard node.isUntypedPlainScalar, let text = node.scalar?.text, let value = Double(yamlCoreText: text) else {
            context.typeMismatch(expected: yamlExpectation, got: node)
            return nil
        }
        return value
    }
}

extension Bool: YAMLDecodable {
    package static var yamlExpectation: String { "a boolean (true or false)" }

    /// Plain `true` and `false` only (YAML 1.2). `yes`/`no`/`on`/`off` are refused with
    /// a hint rather than guessed at, as YAML 1.1 readers disagree about them.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> Bool? {
        guard node.isUntypedPlainScalar, let text = node.scalar?.text else {
            context.typeMismatch(expected: yamlExpectation, got: node)
            return nil
        }
        if let value = Bool(yamlCoreText: text) { return value }
        if ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased()) {
            context.error("expected true or false, got '\(text)' (YAML 1.1 spelling)", at: node.mark)
        } else {
            context.typeMismatch(expected: yamlExpectation, got: node)
        }
        return nil
    }
}

extension Duration: YAMLDecodable {
    package static var yamlExpectation: String { "a duration (a number of seconds, or e.g. 250ms, 10s, 2m, 1h)" }

    /// A plain number is seconds (`1.5` is 1500 ms). A string is a number followed by
    /// a unit: `ms`, `s`, `m` or `h`. Negative durations are refused; whether zero is
    /// acceptable is the caller's rule.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> Duration? {
        guard let text = node.scalar?.text, !node.isNull else {
            context.typeMismatch(expected: yamlExpectation, got: node)
            return nil
        }
        guard let duration = Duration(configText: text) else {
            context.error("invalid duration '\(text)'; expected a number of seconds, or a number with a unit: 250ms, 10s, 2m, 1h", at: node.mark)
            return nil
        }
        return duration
    }

    /// Parses `10`, `1.5`, `250ms`, `10s`, `2m`, `1h` (spaces before the unit are
    /// allowed). Nil for anything else, including negative values.
    init?(configText: String) {
        let text = configText.trimmingCharacters(in: .whitespaces)
        let numberEnd = text.firstIndex { !($0.isASCIIDigit || $0 == ".") } ?? text.endIndex
        let number = String(text[..<numberEnd])
        let unit = text[numberEnd...].trimmingCharacters(in: .whitespaces)
        let millisecondsPerUnit: Int64
        switch unit {
        case "ms": millisecondsPerUnit = 1
        case "", "s": millisecondsPerUnit = 1_000
        case "m", "min": millisecondsPerUnit = 60_000
        case "h": millisecondsPerUnit = 3_600_000
        default: return nil
        }
        if let whole = Int64(number) {
            let (product, overflow) = whole.multipliedReportingOverflow(by: millisecondsPerUnit)
            guard !overflow else { return nil }
            self = .milliseconds(product)
        } else if number.contains(where: \.isASCIIDigit), let value = Double(number), value.isFinite {
            // Fractions go through nanoseconds so that 0.1s is exactly 100 ms.
            let nanoseconds = (value * Double(millisecondsPerUnit) * 1_000_000).rounded()
            guard nanoseconds < Double(Int64.max) else { return nil }
            self = .nanoseconds(Int64(nanoseconds))
        } else {
            return nil
        }
    }
}

extension Array: YAMLDecodable where Element: YAMLDecodable {
    package static var yamlExpectation: String { "a list" }

    /// A sequence whose items all decode. Every bad item is reported, then nil.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> [Element]? {
        guard let items = context.sequence(node) else { return nil }
        var values: [Element] = []
        var failed = false
        for (index, item) in items.enumerated() {
            let value = context.withPath(.index(index)) { Element.decode(item, in: context) }
            if let value { values.append(value) } else { failed = true }
        }
        return failed ? nil : values
    }
}

extension Dictionary: YAMLDecodable where Key == String, Value: YAMLDecodable {
    package static var yamlExpectation: String { "a mapping" }

    /// A mapping whose values all decode, keyed by the keys' text. Duplicate keys are
    /// reported; every bad value is reported, then nil.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> [String: Value]? {
        guard let mapping = YAMLMapping(node, in: context) else { return nil }
        var values: [String: Value] = [:]
        var failed = false
        for pair in mapping.pairs {
            guard let key = pair.key.scalar?.text else { continue }
            let value = context.withPath(.key(key)) { Value.decode(pair.value, in: context) }
            if let value { values[key] = value } else { failed = true }
        }
        return failed ? nil : values
    }
}

extension YAMLNode: YAMLDecodable {
    package static var yamlExpectation: String { "a value" }

    /// The node itself, for callers that inspect it further.
    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> YAMLNode? { node }
}
