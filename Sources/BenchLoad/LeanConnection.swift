internal import CZeroMQ
import Foundation
import IntentBus

/// One client connection of the load generator: a DEALER socket that speaks the IntentBus
/// six frames with as little work per message as libzmq allows, so that the generator is
/// not what limits a path (docs/performance.md, "An honest baseline").
///
/// - A request is five small `zmq_send` copies (the constant frames and the decimal id,
///   all under libzmq's 33-byte inline size: no allocation) and a `zmq_msg_copy` of one
///   prepared body (reference-counted, no copy of the bytes).
/// - An answer is received into eight `zmq_msg_t` that are reused for every message
///   (`zmq_msg_recv` releases the previous content), and read without building a
///   `Frame`, a `String` or an array.
///
/// Threading: owned by the load process's one thread, like the socket.
final class LeanConnection {
    private let socket: UnsafeMutableRawPointer
    private let received: UnsafeMutablePointer<zmq_msg_t>
    private static let maxFrames = 8
    /// The next request id; ids only grow, so an answer from an earlier round is recognised.
    private(set) var nextId: UInt64 = 1
    private let intent: [UInt8]
    /// Kept so that the context outlives its sockets (`zmq_ctx_term` waits for them).
    private let context: LeanContext
    /// Requests go as one packed frame and answers come as one (docs/protocol.md §2.1):
    /// on CURVE, where libzmq encrypts each frame on its own.
    private let packed: Bool

    /// What one answer was.
    enum Answer {
        /// A REPLY whose body has the expected size (`expectedBodySize` < 0: any REPLY).
        case ok(id: UInt64)
        /// An ERROR with code `busy`.
        case busy(id: UInt64)
        /// Any other ERROR, a changed body, or a message that is not an answer; `id` is 0
        /// when the message carried none.
        case failed(id: UInt64, why: String)
        /// PROGRESS or another message that is not final.
        case notFinal
    }

    /// `curve`: the host's public key and this client's key pair (Z85), for a CURVE frontend.
    init(context: LeanContext, endpoint: String, intent: String, curve: LoadCurveKeys? = nil) throws {
        guard let s = zmq_socket(context.handle, ZMQ_DEALER) else {
            throw LoadFailure("zmq_socket: \(String(cString: zmq_strerror(zmq_errno())))")
        }
        socket = s
        self.context = context
        self.intent = Array(intent.utf8)
        packed = curve?.packed ?? false
        received = .allocate(capacity: Self.maxFrames)
        for i in 0..<Self.maxFrames { zmq_msg_init(received + i) }
        var hwm: Int32 = 100_000, linger: Int32 = 0
        zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, 4)
        zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, 4)
        zmq_setsockopt(s, ZMQ_LINGER, &linger, 4)
        if let curve {
            for (option, key) in [(ZMQ_CURVE_SERVERKEY, curve.server), (ZMQ_CURVE_PUBLICKEY, curve.publicKey),
                                  (ZMQ_CURVE_SECRETKEY, curve.secretKey)] {
                // A Z85 key is 40 characters; libzmq takes it with its terminating NUL (41).
                guard key.utf8.count == 40, zmq_setsockopt(s, option, key, 41) == 0 else {
                    throw LoadFailure("CURVE key option \(option): \(String(cString: zmq_strerror(zmq_errno())))")
                }
            }
        }
        guard zmq_connect(s, endpoint) == 0 else {
            throw LoadFailure("zmq_connect \(endpoint): \(String(cString: zmq_strerror(zmq_errno())))")
        }
    }

    deinit {
        for i in 0..<Self.maxFrames { zmq_msg_close(received + i) }
        received.deallocate()
        zmq_close(socket)
    }

    /// The socket handle, for `zmq_poll` in `LoadRound`.
    var pollHandle: UnsafeMutableRawPointer { socket }

    /// Sends one REQUEST with `body`; returns its id. Blocks only at the high-water mark.
    func send(body: LoadBody) throws -> UInt64 {
        let id = nextId
        nextId += 1
        // The id in decimal, written into a stack buffer: no String.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let idLength = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var n = id, length = 0
            repeat { length += 1; n /= 10 } while n > 0
            n = id
            for i in stride(from: length - 1, through: 0, by: -1) {
                buffer[i] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            }
            return length
        }
        if packed { return try sendPacked(id: id, digits: digits, idLength: idLength, body: body) }
        try part("IB1", more: true)
        try part("REQUEST", more: true)
        try withUnsafeBytes(of: &digits) { try raw($0.baseAddress, idLength, more: true) }
        try intent.withUnsafeBytes { try raw($0.baseAddress, $0.count, more: true) }
        try raw(nil, 0, more: true)
        var msg = zmq_msg_t()
        zmq_msg_init(&msg)
        zmq_msg_copy(&msg, body.msg)
        defer { zmq_msg_close(&msg) }
        while zmq_msg_send(&msg, socket, 0) < 0 {
            guard zmq_errno() == EINTR else { throw LoadFailure("zmq_msg_send: \(String(cString: zmq_strerror(zmq_errno())))") }
        }
        return id
    }

    /// The same REQUEST as one packed frame (its bytes written once, the body copied in).
    private func sendPacked(id: UInt64, digits: (UInt64, UInt64, UInt64), idLength: Int, body: LoadBody) throws -> UInt64 {
        var digits = digits
        let kind: StaticString = "REQUEST"
        let size = PackedFrame.size(kind: kind.utf8CodeUnitCount, requestId: idLength, intent: intent.count,
                                    header: 0, body: body.count)!
        var msg = zmq_msg_t()
        zmq_msg_init_size(&msg, size)
        defer { zmq_msg_close(&msg) }
        withUnsafeBytes(of: &digits) { id in
            intent.withUnsafeBytes { intent in
                PackedFrame.write(into: zmq_msg_data(&msg), kind: UnsafeRawBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount),
                                  requestId: UnsafeRawBufferPointer(rebasing: id.prefix(idLength)), intent: intent,
                                  header: UnsafeRawBufferPointer(start: nil, count: 0),
                                  body: UnsafeRawBufferPointer(start: zmq_msg_data(body.msg), count: body.count))
            }
        }
        while zmq_msg_send(&msg, socket, 0) < 0 {
            guard zmq_errno() == EINTR else { throw LoadFailure("zmq_msg_send: \(String(cString: zmq_strerror(zmq_errno())))") }
        }
        return id
    }

    private func part(_ text: StaticString, more: Bool) throws {
        try raw(UnsafeRawPointer(text.utf8Start), text.utf8CodeUnitCount, more: more)
    }

    private func raw(_ bytes: UnsafeRawPointer?, _ count: Int, more: Bool) throws {
        while zmq_send(socket, bytes, count, more ? ZMQ_SNDMORE : 0) < 0 {
            guard zmq_errno() == EINTR else { throw LoadFailure("zmq_send: \(String(cString: zmq_strerror(zmq_errno())))") }
        }
    }

    /// Receives one answer. `wait`: block (up to the socket's receive timeout, set with
    /// `setReceiveTimeout`); otherwise nil at once when nothing is waiting.
    func receive(expectedBodySize: Int, wait: Bool) throws -> Answer? {
        var count = 0
        while true {
            let slot = received + min(count, Self.maxFrames - 1)
            let flags: Int32 = (!wait && count == 0) ? ZMQ_DONTWAIT : 0
            if zmq_msg_recv(slot, socket, flags) < 0 {
                let e = zmq_errno()
                if e == EINTR { continue }
                if e == EAGAIN && count == 0 { return nil }
                throw LoadFailure("zmq_msg_recv: \(String(cString: zmq_strerror(e)))")
            }
            count += 1
            if zmq_msg_more(slot) == 0 { break }
        }
        if packed, count == 1 { return try packedAnswer(expectedBodySize: expectedBodySize) }
        guard count == WireProtocol.frameCount, let id = decimal(received + 2) else {
            return .failed(id: 0, why: "a message of \(count) frames that is not an IntentBus answer")
        }
        if equals(received + 1, "REPLY") {
            let size = zmq_msg_size(received + 5)
            if expectedBodySize < 0 || size == expectedBodySize { return .ok(id: id) }
            return .failed(id: id, why: "REPLY body of \(size) bytes, expected \(expectedBodySize)")
        }
        if equals(received + 1, "ERROR") {
            let body = text(received + 5)
            if body.contains("\"code\":\"busy\"") { return .busy(id: id) }
            return .failed(id: id, why: "ERROR \(body.prefix(200))")
        }
        return .notFinal
    }

    /// An answer that came as one packed frame, read in place.
    private func packedAnswer(expectedBodySize: Int) throws -> Answer {
        let bytes = UnsafeRawBufferPointer(start: zmq_msg_data(received), count: zmq_msg_size(received))
        guard let layout = try? PackedFrame.layout(bytes), let id = decimal(bytes[layout.requestId]) else {
            return .failed(id: 0, why: "a packed frame that is not an IntentBus answer")
        }
        let kind = String(decoding: bytes[layout.kind], as: UTF8.self)
        if kind == "REPLY" {
            let size = layout.body.count
            if expectedBodySize < 0 || size == expectedBodySize { return .ok(id: id) }
            return .failed(id: id, why: "REPLY body of \(size) bytes, expected \(expectedBodySize)")
        }
        if kind == "ERROR" {
            let body = String(decoding: bytes[layout.body], as: UTF8.self)
            if body.contains("\"code\":\"busy\"") { return .busy(id: id) }
            return .failed(id: id, why: "ERROR \(body.prefix(200))")
        }
        return .notFinal
    }

    func setReceiveTimeout(milliseconds: Int32) {
        var ms = milliseconds
        zmq_setsockopt(socket, ZMQ_RCVTIMEO, &ms, 4)
    }

    private func equals(_ msg: UnsafeMutablePointer<zmq_msg_t>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        return zmq_msg_size(msg) == n && memcmp(zmq_msg_data(msg), literal.utf8Start, n) == 0
    }

    private func decimal(_ msg: UnsafeMutablePointer<zmq_msg_t>) -> UInt64? {
        decimal(UnsafeRawBufferPointer(start: zmq_msg_data(msg), count: zmq_msg_size(msg))[...])
    }

    private func decimal(_ digits: Slice<UnsafeRawBufferPointer>) -> UInt64? {
        let n = digits.count
        guard n > 0, n <= 19 else { return nil }
        var value: UInt64 = 0
        for b in digits {
            let d = b &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value * 10 + UInt64(d)
        }
        return value
    }

    private func text(_ msg: UnsafeMutablePointer<zmq_msg_t>) -> String {
        let n = zmq_msg_size(msg)
        guard n > 0, let p = zmq_msg_data(msg) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
    }
}

