import IntentBusCore

/// An intent a result opens: the host runs it next, in the same conversation, and the
/// client sees both answers (App Intents' `OpensIntent`; a legacy `continueInApp`
/// response hands over the same way). The opened intent goes to the same plugin when it
/// claims it, else it is routed as usual. Wire form: the result's `opens_intent`,
/// `{"intent", "parameters"}` (docs/results.md).
public struct OpenedIntent: Sendable, Equatable {
    /// The intent's name on the bus.
    public var intent: String
    /// Its parameters, as a client would send them.
    public var parameters: JSON

    public init(_ intent: String, parameters: JSON = .object([:])) {
        self.intent = intent
        self.parameters = parameters
    }

    /// `{"intent", "parameters"}`.
    public var json: JSON { ["intent": .string(intent), "parameters": parameters] }
}
