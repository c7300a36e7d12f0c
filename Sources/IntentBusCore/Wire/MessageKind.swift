/// The kind of an IntentBus message: frame 1 of every message. See docs/protocol.md.
public enum MessageKind: String, Sendable, CaseIterable {
    // Client → host
    /// Ask for an intent to be handled.
    case request = "REQUEST"
    /// Answer a PROMPT, in the same conversation (request id).
    case answer = "ANSWER"
    /// Give up on a request; the host answers with a final ERROR `cancelled`.
    case cancel = "CANCEL"

    // Host → client (and plugin → host for REPLY/PROMPT/PROGRESS)
    /// Final answer with a status in the header.
    case reply = "REPLY"
    /// Final answer: a failure with a machine-readable code.
    case error = "ERROR"
    /// A question for the user; not final.
    case prompt = "PROMPT"
    /// A progress update; not final.
    case progress = "PROGRESS"
    /// Host → client: the message just sent (an ANSWER, a CANCEL, a REQUEST reusing an
    /// open request id, …) was not accepted. Never final: a request open under the same
    /// id goes on and still gets its one REPLY or ERROR.
    case refused = "REFUSED"
    /// Host → client: the result of an intent that opened another one (docs/results.md).
    /// Never final: the opened intent's REPLY or ERROR follows under the same request id.
    case result = "RESULT"

    // Plugin ↔ host
    /// Plugin → host: handshake.
    case hello = "HELLO"
    /// Host → plugin: handshake accepted.
    case welcome = "WELCOME"
    /// Host → plugin: handshake refused; the body says why.
    case reject = "REJECT"
    /// Either side: this peer is going away.
    case disconnect = "DISCONNECT"
    /// Either side: liveness (reserved for heartbeats).
    case heartbeat = "HEARTBEAT"

    /// Whether a message of this kind ends a request, from the client's point of view.
    public var isFinal: Bool { self == .reply || self == .error }
}

/// The protocol signature and version: frame 0 of every message.
public enum WireProtocol {
    /// Frame 0 of every message.
    public static let signature = "IB1"
    /// The protocol version number carried in HELLO.
    public static let version: Int64 = 1
    /// Frames after any routing envelope.
    public static let frameCount = 6
    /// Longest request id or intent name, in bytes.
    public static let maxNameLength = 255
}
