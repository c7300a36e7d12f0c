import Foundation

/// Bytes a wire frame holds: what the codec reads. `Frame` (a `zmq_msg_t`, in
/// IntentBusZMQ) and `[UInt8]` are both frames, so the one codec serves the sockets and
/// everything that has only bytes (tests, the fuzzers, another transport).
public protocol WireFrameBytes {
    var count: Int { get }
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: WireFrameBytes where Element == UInt8 {
    @inlinable public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

/// The IntentBus message format over bytes (docs/protocol.md §3), with no libzmq: the
/// six frames after any routing envelope, checked and read. `WireMessage` (IntentBusWire)
/// decodes through it; so does `WireBytes` below.
public enum WireCodec {
    /// What routing needs from a message: frames 1 to 3.
    public struct Fields: Sendable, Equatable {
        public let kind: MessageKind
        public let requestId: String
        public let intent: String

        @inlinable public init(kind: MessageKind, requestId: String, intent: String) {
            self.kind = kind
            self.requestId = requestId
            self.intent = intent
        }
    }

    /// Checks `frames` (the six frames after any routing envelope) and reads their
    /// routing fields. Every rule and every error text of protocol §3 lives here.
    @inlinable
    public static func decode<C: Collection>(_ frames: C) throws(WireError) -> Fields
    where C.Element: WireFrameBytes, C.Index == Int {
        guard let first = frames.first else { throw WireError.badFrame("empty message") }
        let isSignature = first.withBytes { $0.elementsEqual(WireProtocol.signature.utf8) }
        guard isSignature else {
            let sig = first.count <= 16 ? (first.withBytes { String(validatingUTF8: $0) } ?? "<binary>") : "<\(first.count) bytes>"
            if sig.hasPrefix("IB") {
                throw WireError(.unsupportedVersion,
                                "protocol \(sig) is not supported; this host speaks \(WireProtocol.signature)")
            }
            throw WireError.badFrame("frame 0 must be \"\(WireProtocol.signature)\", got \"\(sig)\"")
        }
        guard frames.count == WireProtocol.frameCount else {
            throw WireError.badFrame("expected \(WireProtocol.frameCount) frames (IB1, kind, request id, intent, header, body), got \(frames.count)")
        }
        let f0 = frames.startIndex
        guard let kind = frames[f0 + 1].withBytes({ MessageKind(bytes: $0) }) else {
            let shown = frames[f0 + 1].withBytes { String(decoding: $0.prefix(32), as: UTF8.self) }
            throw WireError.badFrame("frame 1 is not a known message kind: \"\(shown)\"")
        }
        guard frames[f0 + 2].count <= WireProtocol.maxNameLength,
              let requestId = frames[f0 + 2].withBytes({ String(validatingUTF8: $0) }) else {
            throw WireError.badFrame("frame 2 (request id) must be UTF-8 of at most \(WireProtocol.maxNameLength) bytes")
        }
        guard frames[f0 + 3].count <= WireProtocol.maxNameLength,
              let intent = frames[f0 + 3].withBytes({ String(validatingUTF8: $0) }) else {
            throw WireError.badFrame("frame 3 (intent) must be UTF-8 of at most \(WireProtocol.maxNameLength) bytes")
        }
        return Fields(kind: kind, requestId: requestId, intent: intent)
    }
}

extension MessageKind {
    /// Every kind with its name, the ones on the hot path first.
    @usableFromInline static let names: [(StaticString, MessageKind)] = [
        ("REQUEST", .request), ("REPLY", .reply), ("ERROR", .error), ("PROGRESS", .progress),
        ("PROMPT", .prompt), ("ANSWER", .answer), ("CANCEL", .cancel), ("HELLO", .hello),
        ("WELCOME", .welcome), ("REJECT", .reject), ("DISCONNECT", .disconnect), ("HEARTBEAT", .heartbeat),
        ("REFUSED", .refused), ("RESULT", .result),
    ]

    /// The kind a frame's bytes name, compared byte by byte: building a `String` and
    /// matching it with `init(rawValue:)` cost ~500 instructions per request on the host's
    /// hot path (docs/performance.md).
    @inlinable
    public init?(bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return nil }
        for (name, kind) in MessageKind.names where name.utf8CodeUnitCount == bytes.count {
            if memcmp(base, name.utf8Start, bytes.count) == 0 { self = kind; return }
        }
        return nil
    }
}

extension String {
    /// Strict UTF-8 decoding of a raw buffer, or nil. ASCII, what ids and intent names are
    /// in practice, skips the generic validator (a metadata lookup per call on the routing
    /// hot path, measured with callgrind, docs/performance.md).
    @inlinable
    public init?(validatingUTF8 buffer: UnsafeRawBufferPointer) {
        if !buffer.contains(where: { $0 >= 0x80 }) {
            self = String(decoding: buffer, as: UTF8.self)
            return
        }
        guard let s = String(validating: buffer.bindMemory(to: UInt8.self), as: UTF8.self) else { return nil }
        self = s
    }
}

/// An IntentBus message as plain bytes: decoded, built and encoded without a socket.
/// Tests, the wire fuzzer and non-ZeroMQ transports use it; the host and the SDKs use
/// `WireMessage`, which keeps libzmq's frames and decodes through the same `WireCodec`.
public struct WireBytes: Sendable, Equatable {
    public var kind: MessageKind
    public var requestId: String
    public var intent: String
    public var header: [UInt8]
    public var body: [UInt8]

    public init(kind: MessageKind, requestId: String = "", intent: String = "", header: [UInt8] = [], body: [UInt8] = []) {
        self.kind = kind
        self.requestId = requestId
        self.intent = intent
        self.header = header
        self.body = body
    }

    /// Decodes the six frames after any routing envelope.
    public init(frames: [[UInt8]]) throws(WireError) {
        let fields = try WireCodec.decode(frames)
        self.init(kind: fields.kind, requestId: fields.requestId, intent: fields.intent,
                  header: frames[4], body: frames[5])
    }

    /// The six frames.
    public var frames: [[UInt8]] {
        [Array(WireProtocol.signature.utf8), Array(kind.rawValue.utf8), Array(requestId.utf8), Array(intent.utf8), header, body]
    }
}
