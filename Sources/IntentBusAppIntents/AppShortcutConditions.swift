import Foundation
import IntentBusCore

/// A condition on the request's context for an app shortcut's phrases (`requiresContext`,
/// `excludesContext`; docs/shortcuts.md "Phrases for one place"), with hassil's meaning:
/// a value, one of several, any value, or any value copied into a parameter.
///
/// ```swift
/// requiresContext: ["area": ["Kitchen", "Küche"], "mood": .slot()]
/// excludesContext: ["muted": true]
/// ```
public struct ShortcutContextCondition: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
                                        ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// The wire form (`requires_context.<key>`).
    public let json: JSON

    init(json: JSON) { self.json = json }
    public init(stringLiteral value: String) { json = .string(value) }
    public init(integerLiteral value: Int) { json = .int(Int64(value)) }
    public init(booleanLiteral value: Bool) { json = .bool(value) }
    /// One of these values.
    public init(arrayLiteral values: String...) { json = .array(values.map { .string($0) }) }

    /// Exactly `value`.
    public static func value(_ value: String) -> Self { Self(json: .string(value)) }
    /// One of `values`.
    public static func oneOf(_ values: [String]) -> Self { Self(json: .array(values.map { .string($0) })) }
    /// Any value, as long as the key is there (requires only).
    public static let any = Self(json: .null)
    /// Any value (or `value`), copied into the parameter named like the key, or `parameter`.
    public static func slot(_ parameter: String? = nil, value: String? = nil) -> Self {
        Self(json: ["value": value.map { .string($0) } ?? .null, "slot": parameter.map { .string($0) } ?? .bool(true)])
    }
}

/// What an app shortcut's slot takes, whatever the parameter's type (`lists`; docs/shortcuts.md
/// "Lists for a slot"): values said as words or templates, a range of numbers, or any words.
///
/// ```swift
/// lists: ["minutes": .range(5...180, step: 5), "note": .values(["laut", .said("(ruhig|leise)", as: "quiet")])]
/// ```
public struct ShortcutSlotList: Sendable, Hashable {
    /// One value of a list: how it is said (words, or a template such as `(ruhig|leise)`)
    /// and what the parameter gets (the words, when `output` is nil).
    public struct Value: Sendable, Hashable, ExpressibleByStringLiteral {
        public let said: String
        public let output: JSON?

        public init(stringLiteral value: String) { said = value; output = nil }
        /// Said as `said`, giving `output`.
        public static func said(_ said: String, as output: String) -> Value { Value(said: said, output: .string(output)) }
        /// Said as `said`, giving a number.
        public static func said(_ said: String, as output: Int) -> Value { Value(said: said, output: .int(Int64(output))) }

        init(said: String, output: JSON?) {
            self.said = said
            self.output = output
        }

        var json: JSON { output.map { ["in": .string(said), "out": $0] } ?? .string(said) }
    }

    /// The wire form (`lists.<parameter>`).
    public let json: JSON

    /// These values.
    public static func values(_ values: [Value]) -> Self { Self(json: ["values": .array(values.map(\.json))]) }
    /// Whole numbers in `range` by `step`, the value multiplied by `multiplier`; `fractions`
    /// `"halves"` or `"tenths"` allows those too.
    public static func range(_ range: ClosedRange<Int>, step: Int = 1, multiplier: Double? = nil, fractions: String? = nil) -> Self {
        var o: [String: JSON] = ["from": .int(Int64(range.lowerBound)), "to": .int(Int64(range.upperBound)), "step": .int(Int64(step))]
        if let multiplier { o["multiplier"] = .double(multiplier) }
        if let fractions { o["fractions"] = .string(fractions) }
        return Self(json: ["range": .object(o)])
    }
    /// Any words.
    public static let wildcard = Self(json: ["wildcard": true])
}
