import IntentBusCore

extension NewStyleParameter {
    /// A parameter's type, metadata `parameters[].type` (docs/protocol.md §9.1). A list
    /// parameter (`"multiple": true`) has its items' type.
    public enum ValueType: String, Sendable, CaseIterable, CustomStringConvertible {
        case integer, decimal, boolean, string, date, url
        /// An app entity; the parameter's `entity` names its declared type.
        case entity
        /// An app enum, `enum` on the wire; the parameter's `enum` names its declared enum.
        case enumeration = "enum"

        /// The wire name, as metadata and messages write it.
        public var description: String { rawValue }

        /// The type name value questions use in both handler styles (docs/protocol.md
        /// §4.4): `String`, `Integer`, `Decimal`, `Boolean`, `Date`, `URL`, or, for an
        /// entity or enum, `declared` (its own name) or the wire name when none is given.
        public func promptName(declared: String?) -> String {
            switch self {
            case .integer: "Integer"
            case .decimal: "Decimal"
            case .boolean: "Boolean"
            case .string: "String"
            case .date: "Date"
            case .url: "URL"
            case .entity, .enumeration: declared ?? rawValue
            }
        }

        /// Whether a range (`min`, `max`) may be declared: numbers only.
        public var isNumeric: Bool { self == .integer || self == .decimal }

        /// The wire names for messages: "integer, decimal, …, entity or enum".
        public static var names: String {
            allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
        }
    }
}
