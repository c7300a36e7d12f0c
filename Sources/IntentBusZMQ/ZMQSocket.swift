internal import CZeroMQ
import Foundation
import IntentBusCore

/// The socket types IntentBus uses.
public enum SocketType: Sendable {
    case router, dealer, req, rep, pair, push, pull, pub, sub

    var raw: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .pair: ZMQ_PAIR
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        }
    }
}

/// A ZeroMQ socket.
///
/// Threading: libzmq sockets are not thread-safe. A `ZMQSocket` must be used by one
/// thread at a time; the type is deliberately not `Sendable`. Code that needs to hand
/// a socket to its owning thread uses `SocketTransfer`.
public final class ZMQSocket {
    let handle: UnsafeMutableRawPointer
    /// Whether `close()` was called (a closed handle must not be used again).
    private(set) var closed = false
    /// The context is kept alive as long as any of its sockets.
    private let context: ZMQContext

    /// Creates a socket of `type` in `context`, with linger 0 so that closing never blocks.
    public init(_ context: ZMQContext, _ type: SocketType) throws(ZMQError) {
        guard let s = zmq_socket(context.handle, type.raw) else {
            throw ZMQError(code: zmq_errno(), function: "zmq_socket")
        }
        handle = s
        self.context = context
        try setOption(ZMQ_LINGER, 0)
    }

    deinit { close() }

    /// Closes the socket. Safe to call twice.
    public func close() {
        if !closed {
            closed = true
            _ = zmq_close(handle)
        }
    }

    public func bind(_ endpoint: String) throws(ZMQError) {
        try zmqCheck("zmq_bind", context: endpoint) { zmq_bind(handle, endpoint) }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        try zmqCheck("zmq_connect", context: endpoint) { zmq_connect(handle, endpoint) }
    }

    /// The endpoint actually bound, e.g. the port chosen for `tcp://127.0.0.1:*`.
    public var lastEndpoint: String {
        var buf = [CChar](repeating: 0, count: 1024)
        var size = buf.count
        _ = zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buf, &size)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func setOption(_ option: Int32, _ value: Int32) throws(ZMQError) {
        var v = value
        try zmqCheck("zmq_setsockopt") {
            zmq_setsockopt(handle, option, &v, MemoryLayout<Int32>.size)
        }
    }

    /// The identity a ROUTER peer sees for this socket.
    public func setIdentity(_ identity: String) throws(ZMQError) {
        let bytes = Array(identity.utf8)
        try zmqCheck("zmq_setsockopt", context: "ZMQ_ROUTING_ID") {
            zmq_setsockopt(handle, ZMQ_ROUTING_ID, bytes, bytes.count)
        }
    }

    /// ROUTER only: fail with EHOSTUNREACH instead of silently dropping a message to an
    /// unknown peer, and with EAGAIN instead of dropping at the high-water mark.
    public func setRouterMandatory(_ on: Bool = true) throws(ZMQError) {
        try setOption(ZMQ_ROUTER_MANDATORY, on ? 1 : 0)
    }

    /// Queue messages only to peers whose connection is complete (ZMQ_IMMEDIATE): with it
    /// a send to an endpoint nobody listens on waits (or fails with `dontWait`) instead of
    /// being kept, to be delivered when a process binds there later.
    public func setImmediate(_ on: Bool = true) throws(ZMQError) {
        try setOption(ZMQ_IMMEDIATE, on ? 1 : 0)
    }

    /// Send and receive high-water marks, in messages (0 = unlimited).
    public func setHighWaterMarks(send: Int32, receive: Int32) throws(ZMQError) {
        try setOption(ZMQ_SNDHWM, send)
        try setOption(ZMQ_RCVHWM, receive)
    }

    /// Milliseconds that closing the socket may wait to send what is still queued
    /// (0: drop it at once, the default here; -1: wait forever).
    public func setLinger(milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_LINGER, milliseconds)
    }

    /// Milliseconds a blocking receive waits before giving up (-1 = forever).
    public func setReceiveTimeout(milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_RCVTIMEO, milliseconds)
    }

    /// Milliseconds a blocking send waits before giving up (-1 = forever).
    public func setSendTimeout(milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_SNDTIMEO, milliseconds)
    }

    /// Subscribes a SUB socket to messages starting with `prefix`.
    public func subscribe(_ prefix: String = "") throws(ZMQError) {
        let bytes = Array(prefix.utf8)
        try zmqCheck("zmq_setsockopt", context: "ZMQ_SUBSCRIBE") {
            zmq_setsockopt(handle, ZMQ_SUBSCRIBE, bytes, bytes.count)
        }
    }

    /// Sends all `frames` as one multipart message. The frames' contents are moved into
    /// libzmq (no copy); they are empty afterwards.
    ///
    /// - Returns: false when the message could not be queued now (`EAGAIN`, only
    ///   possible with `dontWait` or a send timeout). Nothing was sent in that case.
    @discardableResult
    public func send(_ frames: [Frame], dontWait: Bool = false) throws(ZMQError) -> Bool {
        let last = frames.count - 1
        for (i, frame) in frames.enumerated() {
            var flags: Int32 = i < last ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            switch try zmqCall("zmq_msg_send", { frame.withMsg { zmq_msg_send($0, handle, flags) } }) {
            case .done: continue
            case .wouldBlock:
                // libzmq guarantees atomic delivery of multipart messages: the first
                // frame is the only one that can hit EAGAIN.
                return false
            }
        }
        return true
    }

    /// Sends one frame as a whole message (its content moved into libzmq), without an array.
    @discardableResult
    package func send(single frame: Frame, dontWait: Bool = false) throws(ZMQError) -> Bool {
        let flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
        switch try zmqCall("zmq_msg_send", { frame.withMsg { zmq_msg_send($0, handle, flags) } }) {
        case .done: return true
        case .wouldBlock: return false
        }
    }

    /// ROUTER only: sends `frames` as one multipart message to the peer whose routing id
    /// is `identity`. The same as `send([Frame(data: identity)] + frames)`, without building
    /// a frame for the identity: libzmq copies the bytes (a frame object per message cost
    /// an allocation on the host's hot path, docs/performance.md).
    ///
    /// - Returns: false when the message could not be queued now (`EAGAIN`); nothing was
    ///   sent in that case.
    @discardableResult
    public func send(to identity: Data, _ frames: [Frame], dontWait: Bool = false) throws(ZMQError) -> Bool {
        var flags: Int32 = frames.isEmpty ? 0 : ZMQ_SNDMORE
        if dontWait { flags |= ZMQ_DONTWAIT }
        // The identity frame is where ROUTER decides the route: EHOSTUNREACH (mandatory)
        // and EAGAIN (high-water mark) happen here, before anything is queued.
        let sent = try zmqCall("zmq_send") {
            identity.withUnsafeBytes { zmq_send(handle, $0.baseAddress, $0.count, flags) }
        }
        if case .wouldBlock = sent { return false }
        return try send(frames, dontWait: dontWait)
    }

    /// Receives one whole multipart message.
    ///
    /// - Parameter maxFrames: frames kept at most; the rest of a longer message is read
    ///   and discarded, and one empty frame stands for them at the end (so the result has
    ///   `maxFrames + 1` frames), which keeps a peer's frame count from costing memory.
    /// - Returns: nil when nothing is waiting (`dontWait`) or the receive timed out.
    public func receive(dontWait: Bool = false, maxFrames: Int = Int.max) throws(ZMQError) -> [Frame]? {
        var frames: [Frame] = []
        frames.reserveCapacity(8)
        var discarding = false
        while true {
            // A fresh zmq_msg_t per frame; ZMQ_RCVMORE is read before anything is closed.
            let frame = Frame()
            let flags: Int32 = (dontWait && frames.isEmpty) ? ZMQ_DONTWAIT : 0
            switch try zmqCall("zmq_msg_recv", { frame.withMsg { zmq_msg_recv($0, handle, flags) } }) {
            case .wouldBlock:
                if frames.isEmpty { return nil }
                continue  // cannot happen mid-message; be safe and retry
            case .done:
                let more = frame.withMsg { zmq_msg_more($0) } != 0
                if frames.count < maxFrames {
                    frames.append(frame)
                } else if !discarding {
                    discarding = true
                    frames.append(Frame())
                }
                if !more { return frames }
            }
        }
    }

    /// Frames larger than `bytes` make libzmq drop the sending peer's connection before
    /// the message is delivered (ZMQ_MAXMSGSIZE; -1 = no limit).
    public func setMaximumMessageSize(_ bytes: Int) throws(ZMQError) {
        var v = Int64(bytes)
        try zmqCheck("zmq_setsockopt", context: "ZMQ_MAXMSGSIZE") {
            zmq_setsockopt(handle, ZMQ_MAXMSGSIZE, &v, MemoryLayout<Int64>.size)
        }
    }
}

extension ZMQSocket {
    /// Receives one whole multipart message into `frames`, reusing the `Frame` objects
    /// already there when nothing else holds them (`isKnownUniquelyReferenced`), so that
    /// a loop receiving message after message allocates no frames. Afterwards `frames`
    /// holds exactly the message's frames. Each frame of a message still has its own
    /// `zmq_msg_t`, and `zmq_msg_recv` releases what a reused one held before.
    ///
    /// - Returns: false when nothing is waiting (`dontWait`) or the receive timed out;
    ///   `frames` then holds no new message (an empty array stays empty).
    package func receive(into frames: inout [Frame], dontWait: Bool = false) throws(ZMQError) -> Bool {
        var count = 0
        let appendedFirst = frames.isEmpty
        while true {
            if count == frames.count {
                frames.append(Frame())
            } else if !isKnownUniquelyReferenced(&frames[count]) {
                frames[count] = Frame()
            }
            let frame = frames[count]
            let flags: Int32 = (dontWait && count == 0) ? ZMQ_DONTWAIT : 0
            switch try zmqCall("zmq_msg_recv", { frame.withMsg { zmq_msg_recv($0, handle, flags) } }) {
            case .wouldBlock:
                if count == 0 {
                    if frames.count == 1 && frame.count == 0 && appendedFirst { frames.removeAll() }
                    return false
                }
                continue  // cannot happen mid-message; be safe and retry
            case .done:
                count += 1
                if frame.withMsg({ zmq_msg_more($0) }) == 0 {
                    if frames.count > count { frames.removeLast(frames.count - count) }
                    return true
                }
            }
        }
    }
}

/// Hands a socket from the thread that made it to the thread that will own it.
///
/// libzmq allows a socket to move between threads when a full memory barrier separates
/// the uses; the lock inside `take()` provides it.
public final class SocketTransfer: @unchecked Sendable {
    // @unchecked: guarded by `lock`; the socket is used by one thread before and one after.
    private let lock = Lock()
    private var socket: ZMQSocket?

    public init(_ socket: ZMQSocket) { self.socket = socket }

    /// Takes the socket; the second call returns nil.
    public func take() -> ZMQSocket? {
        lock.withLock {
            defer { socket = nil }
            return socket
        }
    }
}
