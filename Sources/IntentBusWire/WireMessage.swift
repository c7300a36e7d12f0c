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
                  header: header.map { Frame(data: $0.canonicalData) } ?? Frame(),
                  body: body.map { Frame(data: $0.canonicalData) } ?? Frame())
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
    public func headerJSON() throws(JSONParseError) -> JSON { try JSON.parse(header.data) }

    /// The body parsed as JSON (empty frame = empty object).
    public func bodyJSON() throws(JSONParseError) -> JSON { try JSON.parse(body.data) }

    /// Parses the frames that follow the routing envelope.
    public static func decode(_ frames: ArraySlice<Frame>) throws(WireError) -> WireMessage {
        guard let first = frames.first else { throw WireError.badFrame("empty message") }
        guard first.equals("IB1") else {
            let sig = first.count <= 16 ? (first.validUTF8 ?? "<binary>") : "<\(first.count) bytes>"
            if sig.hasPrefix("IB") {
                throw WireError(.unsupportedVersion,
                                "protocol \(sig) is not supported; this host speaks \(WireProtocol.signature)")
            }
            throw WireError.badFrame("frame 0 must be \"\(WireProtocol.signature)\", got \"\(sig)\"")
        }
        guard frames.count == WireProtocol.frameCount else {
            throw WireError.badFrame("expected \(WireProtocol.frameCount) frames (IB1, kind, request id, intent, header, body), got \(frames.count)")
        }
        // Indexed in place: copying the slice into an Array cost an allocation per message.
        let f0 = frames.startIndex
        guard let kind = MessageKind(frame: frames[f0 + 1]) else {
            throw WireError.badFrame("frame 1 is not a known message kind: \"\(frames[f0 + 1].string.prefix(32))\"")
        }
        guard frames[f0 + 2].count <= WireProtocol.maxNameLength, let requestId = frames[f0 + 2].validUTF8 else {
            throw WireError.badFrame("frame 2 (request id) must be UTF-8 of at most \(WireProtocol.maxNameLength) bytes")
        }
        guard frames[f0 + 3].count <= WireProtocol.maxNameLength, let intent = frames[f0 + 3].validUTF8 else {
            throw WireError.badFrame("frame 3 (intent) must be UTF-8 of at most \(WireProtocol.maxNameLength) bytes")
        }
        let message = WireMessage(kind: kind, requestId: requestId, intent: intent, header: frames[f0 + 4],
                                  body: frames[f0 + 5])
        message.receivedSignature = frames[f0]
        message.receivedKind = frames[f0 + 1]
        message.receivedIntent = frames[f0 + 3]
        return message
    }
}

extension MessageKind {
    /// Every kind with its name, the ones on the hot path first.
    private static let names: [(StaticString, MessageKind)] = [
        ("REQUEST", .request), ("REPLY", .reply), ("ERROR", .error), ("PROGRESS", .progress),
        ("PROMPT", .prompt), ("ANSWER", .answer), ("CANCEL", .cancel), ("HELLO", .hello),
        ("WELCOME", .welcome), ("REJECT", .reject), ("DISCONNECT", .disconnect), ("HEARTBEAT", .heartbeat),
        ("REFUSED", .refused), ("RESULT", .result),
    ]

    /// The kind a frame names, compared byte by byte: building a `String` and matching it
    /// with `init(rawValue:)` cost ~500 instructions per request on the host's hot path
    /// (docs/performance.md).
    public init?(frame: Frame) {
        let found = frame.withBytes { bytes -> MessageKind? in
            guard let base = bytes.baseAddress else { return nil }
            for (name, kind) in MessageKind.names where name.utf8CodeUnitCount == bytes.count {
                if memcmp(base, name.utf8Start, bytes.count) == 0 { return kind }
            }
            return nil
        }
        guard let found else { return nil }
        self = found
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
