/// The type of a new-style parameter, metadata `parameters[].type` (docs/protocol.md §9.1).
/// A list parameter (`"multiple": true`) has its items' type.
public enum ParameterType: String, Sendable, CaseIterable, CustomStringConvertible {
    case integer, decimal, boolean, string, date, url, entity
    /// An app enum; `enum` on the wire.
    case enumeration = "enum"

    /// The wire name, as it appears in metadata and in messages.
    public var description: String { rawValue }

    /// The wire names for messages: "integer, decimal, …, entity or enum".
    public static var names: String {
        allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
    }
}
