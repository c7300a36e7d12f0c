import Foundation
import IntentBusCore
import IntentBusZMQ

/// One IntentBus message, after any ROUTER envelope:
///
///     frame 0  "IB1"       signature and version
///     frame 1  kind        REQUEST, REPLY, …
///     frame 2  request id  chosen by the sender of the REQUEST
///     frame 3  intent      the intent name, routed on without reading the body
///     frame 4  header      small JSON object (may be empty)
///     frame 5  body        JSON, opaque to the host on the plain path (may be empty)
///
/// The header and body are kept as frames so that the host can forward them without
/// copying or decoding. Owned by one thread at a time.
public final class WireMessage {
    public var kind: MessageKind {
        didSet { if kind != oldValue { receivedKind = nil } }
    }
    public var requestId: String
    public var intent: String {
        didSet { if intent != oldValue { receivedIntent = nil } }
    }
    public var header: Frame
    public var body: Frame
    /// Frames 0, 1 and 3 as `decode` received them. Forwarding a message moves them on
    /// instead of building new ones: two allocations per frame saved on the host's hot path
    /// (docs/performance.md). Dropped when `kind` or `intent` changes.
    private var receivedSignature: Frame?
    private var receivedKind: Frame?
    private var receivedIntent: Frame?

    public init(kind: MessageKind, requestId: String = "", intent: String = "",
                header: Frame = Frame(), body: Frame = Frame()) {
        self.kind = kind
        self.requestId = requestId
        self.intent = intent
        self.header = header
        self.body = body
    }

    /// Builds a message from JSON values.
    public convenience init(kind: MessageKind, requestId: String = "", intent: String = "",
                            header: JSON?, body: JSON?) {
        self.init(kind: kind, requestId: requestId, intent: intent,
                  header: header.map { Frame(json: $0) } ?? Frame(),
                  body: body.map { Frame(json: $0) } ?? Frame())
    }

    /// The six frames to send. The header and body frames are moved, not copied.
    public var frames: [Frame] { frames(after: []) }

    /// `envelope` (routing frames) followed by the six frames, in one array. Like `frames`,
    /// it hands out the message's own frames: sending moves their content into libzmq.
    public func frames(after envelope: [Frame]) -> [Frame] {
        var out: [Frame] = []
        out.reserveCapacity(envelope.count + WireProtocol.frameCount)
        out.append(contentsOf: envelope)
        out.append(receivedSignature ?? Frame(WireProtocol.signature))
        out.append(receivedKind ?? Frame(kind.rawValue))
        out.append(Frame(requestId))
        out.append(receivedIntent ?? Frame(intent))
        out.append(header)
        out.append(body)
        // Handed out once: after a send they are empty, so a second call builds new ones.
        (receivedSignature, receivedKind, receivedIntent) = (nil, nil, nil)
        return out
    }

    /// The header parsed as JSON (empty frame = empty object).
    public func headerJSON() throws(JSONParseError) -> JSON { try header.parseJSON() }

    /// The body parsed as JSON (empty frame = empty object).
    public func bodyJSON() throws(JSONParseError) -> JSON { try body.parseJSON() }

    /// Parses the frames that follow the routing envelope (the rules: `WireCodec`).
    public static func decode(_ frames: ArraySlice<Frame>) throws(WireError) -> WireMessage {
        let fields = try WireCodec.decode(frames)
        // Indexed in place: copying the slice into an Array cost an allocation per message.
        let f0 = frames.startIndex
        let message = WireMessage(kind: fields.kind, requestId: fields.requestId, intent: fields.intent,
                                  header: frames[f0 + 4], body: frames[f0 + 5])
        message.receivedSignature = frames[f0]
        message.receivedKind = frames[f0 + 1]
        message.receivedIntent = frames[f0 + 3]
        return message
    }
}

extension Frame: WireFrameBytes {}

extension MessageKind {
    /// The kind a frame names (`WireCodec`'s byte compare).
    public init?(frame: Frame) {
        guard let kind = frame.withBytes({ MessageKind(bytes: $0) }) else { return nil }
        self = kind
    }
}

/// Splits what a ROUTER socket received into the routing envelope and the message.
///
/// ROUTER prepends the peer's identity. A REQ peer also adds an empty delimiter frame,
/// which must be echoed back; a DEALER peer adds nothing.
public struct RoutingEnvelope {
    /// The peer identity frame plus, for REQ peers, the empty delimiter.
    public var frames: [Frame]
    /// The peer's identity bytes, as a key.
    public let identity: Data

    /// The envelope of a peer known by its identity bytes (`isRequestReply`: a REQ peer,
    /// which needs the empty delimiter).
    package init(identity: Data, isRequestReply: Bool) {
        self.identity = identity
        frames = isRequestReply ? [Frame(data: identity), Frame()] : [Frame(data: identity)]
    }

    package init(frames: [Frame], identity: Data) {
        self.frames = frames
        self.identity = identity
    }

    /// Separates the envelope from `frames` (which must start with the identity).
    public static func split(_ frames: [Frame]) -> (RoutingEnvelope, ArraySlice<Frame>)? {
        guard let id = frames.first else { return nil }
        var envelopeCount = 1
        if frames.count > 1, frames[1].count == 0 { envelopeCount = 2 }
        let env = RoutingEnvelope(frames: Array(frames[0..<envelopeCount]), identity: id.data)
        return (env, frames[envelopeCount...])
    }

    /// A fresh copy of the envelope frames, to address a message to this peer.
    public func copyFrames() -> [Frame] { frames.map { $0.copy() } }

    /// Whether the peer is a REQ socket (strict request/reply: no PROGRESS can be sent).
    public var isRequestReply: Bool { frames.count == 2 }
}
