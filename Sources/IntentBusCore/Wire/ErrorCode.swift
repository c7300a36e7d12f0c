/// The machine-readable codes of ERROR messages. Stable: clients switch on them.
public enum ErrorCode: String, Sendable, CaseIterable, Codable {
    /// The message does not follow the wire format.
    case badFrame = "bad_frame"
    /// Frame 0 names a protocol version this host does not speak.
    case unsupportedVersion = "unsupported_version"
    /// No plugin claims the intent.
    case unknownIntent = "unknown_intent"
    /// Several plugins claim the intent and the request did not say which.
    case choiceRequired = "choice_required"
    /// The named plugin does not exist or does not claim the intent.
    case unknownPlugin = "unknown_plugin"
    /// The plugin did not answer in time.
    case timeout = "timeout"
    /// The plugin exited while it held the request.
    case pluginCrashed = "plugin_crashed"
    /// The plugin stopped answering heartbeats while it held the request.
    case pluginHung = "plugin_hung"
    /// The plugin can't run (missing binary, failed handshake, crash loop).
    case pluginUnavailable = "plugin_unavailable"
    /// Too many requests in flight for the plugin; try again later.
    case busy = "busy"
    /// Parameters don't match the intent's definition.
    case invalidParameters = "invalid_parameters"
    /// The client's key does not give it the right to do this (docs/security.md).
    case forbidden = "forbidden"
    /// The intent is restricted and the client is not authenticated.
    case authenticationRequired = "authentication_required"
    /// An ANSWER for a conversation that doesn't exist or has expired.
    case conversationExpired = "conversation_expired"
    /// The client cancelled the request.
    case cancelled = "cancelled"
    /// The request id is already in use by this client.
    case duplicateRequest = "duplicate_request"
    /// An ANSWER for an open request that is not waiting for one (no PROMPT is open).
    case unexpectedAnswer = "unexpected_answer"
    /// The message is larger than the host's `limits.max_message_size`.
    case tooLarge = "too_large"
    /// The plugin reported a failure it could not express as a response.
    case pluginError = "plugin_error"
    /// The host's shared state (`host.state: postgresql://…`) is out of reach: the change
    /// was not made. Reads answer from the host's cache; retry later.
    case stateUnavailable = "state_unavailable"
    /// The host is shutting down.
    case shuttingDown = "shutting_down"
    /// A bug in the host.
    case internalError = "internal"
}

/// An IntentBus failure as a client sees it: the body of an ERROR message.
public struct BusError: Error, Sendable, CustomStringConvertible, Equatable {
    public let code: ErrorCode
    public let message: String
    /// Structured extras: candidates for `choice_required`, the exit status for
    /// `plugin_crashed`, the parameter for `invalid_parameters` …
    public let details: JSON

    public init(_ code: ErrorCode, _ message: String, details: JSON = .object([:])) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The ERROR body.
    public var json: JSON {
        var o: [String: JSON] = ["code": .string(code.rawValue), "message": .string(message)]
        if details != .object([:]) { o["details"] = details }
        return .object(o)
    }

    /// Reads an ERROR body; an unknown code becomes `internal`, keeping the text.
    public init(json: JSON) {
        let raw = json["code"]?.stringValue ?? "internal"
        code = ErrorCode(rawValue: raw) ?? .internalError
        message = json["message"]?.stringValue ?? raw
        details = json["details"] ?? .object([:])
    }
}
