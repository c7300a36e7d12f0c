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

        /// Whether a range (`min`, `max`) may be declared: numbers only.
        public var isNumeric: Bool { self == .integer || self == .decimal }

        /// The wire names for messages: "integer, decimal, …, entity or enum".
        public static var names: String {
            allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
        }
    }
}
