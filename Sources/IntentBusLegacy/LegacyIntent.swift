import Foundation
import IntentBusCore
import IntentBusPlugin

/// A legacy intent as a handler sees it in one phase: its name and the parameter
/// values resolved so far, already checked and normalized by the host against the
/// intent's definition (docs/definitions.md, "Values on the wire").
///
/// A value type: handlers keep no state across phases (the host may call
/// `handler(for:)` anew for each), as SiriKit's handlers don't.
public struct LegacyIntent: Sendable {
    /// The intent name, e.g. `INSendMessageIntent`.
    public let name: String
    /// The parameters given or resolved so far. Absent means no value.
    public let parameters: [String: JSON]
    /// The client identity the client gave, if any.
    public let client: String?

    public init(name: String, parameters: [String: JSON], client: String? = nil) {
        self.name = name
        // A new dictionary only when there is a null to leave out.
        self.parameters = parameters.values.contains(where: \.isNull) ? parameters.filter { !$0.value.isNull } : parameters
        self.client = client
    }

    /// The value of `parameter`, or nil.
    public subscript(_ parameter: String) -> JSON? { parameters[parameter] }

    /// A String parameter, or a custom object's `displayString` (or `identifier`).
    public func string(_ parameter: String) -> String? {
        guard let value = parameters[parameter] else { return nil }
        if let text = value.stringValue { return text }
        return value["displayString"]?.stringValue ?? value["identifier"]?.stringValue
    }

    /// A custom object's `identifier`, or the string the user gave for it.
    public func identifier(_ parameter: String) -> String? {
        guard let value = parameters[parameter] else { return nil }
        return value["identifier"]?.stringValue ?? value.stringValue
    }

    /// An Integer parameter.
    public func int(_ parameter: String) -> Int? { parameters[parameter]?.intValue.map { Int($0) } }
    /// A Decimal parameter (or a Duration in seconds).
    public func double(_ parameter: String) -> Double? { parameters[parameter]?.doubleValue }
    /// A Boolean parameter.
    public func bool(_ parameter: String) -> Bool? { parameters[parameter]?.boolValue }
}
