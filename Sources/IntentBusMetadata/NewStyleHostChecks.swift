import IntentBusCore

/// The checks of HELLO metadata that need what only the host knows, called by
/// `NewStyleSection.decode(hello:checks:)` at their place in the declarations so that the
/// problems stay in declaration order.
public protocol NewStyleHostChecks {
    /// A parameter's `default` checked as a request's value would be (type, coercions,
    /// enum cases, date and url forms; not the range): the normalised value, or why it
    /// does not fit. `enums` are the enums declared so far.
    func checkDefault(_ value: JSON, of parameter: NewStyleParameter,
                      enums: [String: NewStyleEnum]) -> Result<JSON, any Error>
    /// The assistant schemas known, for messages: "messages.sendMessage, system.search".
    var schemaNames: String { get }
    /// What is wrong with `intent` as an implementation of the schema `name`; nil when no
    /// such schema is known.
    func schemaProblems(_ name: String, of intent: NewStyleIntent) -> [String]?
}
