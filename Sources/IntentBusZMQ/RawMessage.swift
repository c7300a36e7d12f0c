internal import CZeroMQ
import Foundation
import IntentBusCore

/// One received multipart message in `zmq_msg_t`s the receiver owns and reuses: no Swift
/// object per frame and no array per message. The host's relay lane reads and forwards
/// messages with it (docs/performance.md, "The relay lane"); a message the lane does not
/// take becomes ordinary `Frame`s with `takeFrames()`.
///
/// Owned by one thread. Frame storage is allocated once and never moves.
package final class RawMessage {
    /// Frames kept at most; the rest of a longer message is read and dropped, and
    /// `isTruncated` says so (the count then is `capacity`).
    package let capacity: Int
    private let msgs: UnsafeMutablePointer<zmq_msg_t>
    /// The number of frames of the message last received.
    /// (`@exclusivity(unchecked)`: one owning thread, and the run-time checks cost more
    /// than the rest of a frame's bookkeeping.)
    @exclusivity(unchecked) package private(set) var count = 0
    /// The message had more frames than `capacity`.
    @exclusivity(unchecked) package private(set) var isTruncated = false
    /// The message came as one packed frame (`unpack()`), split into the six.
    @exclusivity(unchecked) package private(set) var wasPacked = false
    /// The packed frame as received, kept for its connection metadata (`property`): the
    /// frames split from it are new messages, which libzmq gives no metadata.
    private let packed: UnsafeMutablePointer<zmq_msg_t>

    package init(capacity: Int = 9) {
        self.capacity = capacity
        msgs = .allocate(capacity: capacity)
        for i in 0..<capacity { zmq_msg_init(msgs + i) }
        packed = .allocate(capacity: 1)
        zmq_msg_init(packed)
    }

    deinit {
        for i in 0..<capacity { zmq_msg_close(msgs + i) }
        msgs.deallocate()
        zmq_msg_close(packed)
        packed.deallocate()
    }

    /// Receives the next whole message from `socket` without waiting.
    ///
    /// - Returns: false when nothing is waiting.
    package func receive(from socket: ZMQSocket) throws(ZMQError) -> Bool {
        var n = 0
        var truncated = false
        defer { (count, isTruncated) = (n, truncated) }
        if wasPacked {
            wasPacked = false
            zmq_msg_close(packed)
            zmq_msg_init(packed)
        }
        while true {
            // Frames past `capacity` are received into the last one and dropped.
            let target = msgs + min(n, capacity - 1)
            if n >= capacity { truncated = true }
            let flags: Int32 = n == 0 ? ZMQ_DONTWAIT : 0
            switch try zmqCall("zmq_msg_recv", { zmq_msg_recv(target, socket.handle, flags) }) {
            case .wouldBlock:
                if n == 0 { return false }
                continue  // cannot happen mid-message
            case .done:
                if n < capacity { n += 1 }
                if zmq_msg_more(target) == 0 { return true }
            }
        }
    }

    /// The size of frame `i`.
    @inline(__always) package func size(_ i: Int) -> Int { zmq_msg_size(msgs + i) }

    /// The bytes of frame `i`, valid until the frame is sent, moved or received into again.
    @inline(__always) package func bytes(_ i: Int) -> UnsafeRawBufferPointer {
        let n = zmq_msg_size(msgs + i)
        return UnsafeRawBufferPointer(start: n == 0 ? nil : UnsafeRawPointer(zmq_msg_data(msgs + i)), count: n)
    }

    /// A metadata property of frame `i`'s message (`zmq_msg_gets`), such as "User-Id", which
    /// the ZAP handler set for the peer's connection; nil when the connection has none.
    package func property(_ i: Int, _ name: String) -> String? {
        zmq_msg_gets(wasPacked ? packed : msgs + i, name).map { String(cString: $0) }
    }

    /// Splits a packed message (docs/protocol.md §2.1: the envelope, then one frame that
    /// starts with "IB1P") into the six frames in place, so that everything after reads
    /// it as if it had come in six. Small fields are copied; a body of 1 KiB or more is
    /// shared with the packed frame (no copy), which stays alive until it is released.
    ///
    /// - Returns: false when the message is not packed (it is left as it is).
    /// - Throws: `bad_frame` when the packed frame's lengths do not fit it; the message is
    ///   left as received.
    package func unpack() throws(WireError) -> Bool {
        guard !isTruncated, count == 2 || (count == 3 && size(1) == 0), count + 5 <= capacity else { return false }
        let last = count - 1
        guard PackedFrame.isPacked(bytes(last)) else { return false }
        let layout = try PackedFrame.layout(bytes(last))
        zmq_msg_close(packed)
        zmq_msg_init(packed)
        zmq_msg_move(packed, msgs + last)
        let base = zmq_msg_data(packed)!
        Self.signature.withUnsafeBytes { set(last, $0) }
        let fields = layout.inlineFields
        for k in 0..<5 {
            let range = fields[k]
            let target = msgs + last + 1 + k
            zmq_msg_close(target)
            if range.count >= Self.sharedFieldBytes, let keeper = Self.keeper(of: packed) {
                if zmq_msg_init_data(target, base + range.lowerBound, range.count, Self.releaseKeeper, keeper) == 0 { continue }
                Self.releaseKeeper(nil, keeper)
            }
            zmq_msg_init_size(target, range.count)
            if range.count > 0 { zmq_msg_data(target)!.copyMemory(from: base + range.lowerBound, byteCount: range.count) }
        }
        count = last + 6
        wasPacked = true
        return true
    }

    private static let signature = Array(WireProtocol.signature.utf8)

    /// Fields this large are shared with the packed frame rather than copied.
    private static let sharedFieldBytes = 1_024

    /// A reference to `msg`'s content (a `zmq_msg_copy` on the heap) for a frame that
    /// points into it.
    private static func keeper(of msg: UnsafeMutablePointer<zmq_msg_t>) -> UnsafeMutablePointer<zmq_msg_t>? {
        let keeper = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
        zmq_msg_init(keeper)
        guard zmq_msg_copy(keeper, msg) == 0 else {
            keeper.deallocate()
            return nil
        }
        return keeper
    }

    /// libzmq's free function for shared fields: drops the packed frame's reference (on
    /// whichever thread libzmq releases the frame).
    private static let releaseKeeper: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, hint in
        guard let keeper = hint?.assumingMemoryBound(to: zmq_msg_t.self) else { return }
        zmq_msg_close(keeper)
        keeper.deallocate()
    }

    /// Replaces frame `i` with a copy of `bytes`.
    private func set(_ i: Int, _ bytes: UnsafeRawBufferPointer) {
        zmq_msg_close(msgs + i)
        zmq_msg_init_size(msgs + i, bytes.count)
        if bytes.count > 0 { zmq_msg_data(msgs + i)!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
    }

    /// Whether frame `i` holds exactly `literal`.
    @inline(__always) package func frame(_ i: Int, equals literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard zmq_msg_size(msgs + i) == n else { return false }
        return n == 0 || memcmp(zmq_msg_data(msgs + i), literal.utf8Start, n) == 0
    }

    /// Sends frame `i` on `socket` (its content moves into libzmq; the frame is empty after).
    @inline(__always) package func send(_ i: Int, on socket: ZMQSocket, more: Bool) -> SendStatus {
        SendStatus(zmq_msg_send(msgs + i, socket.handle, (more ? ZMQ_SNDMORE : 0) | ZMQ_DONTWAIT))
    }

    /// Moves frame `i` into `store`'s entry `slot`, part `part` (frame `i` is empty after).
    @inline(__always) package func move(_ i: Int, to store: MessageStore, slot: Int, part: Int) {
        zmq_msg_move(store.pointer(slot, part), msgs + i)
    }

    /// The received frames as `Frame` objects (their contents move; no copy), for the
    /// general path. A truncated message gets one empty frame at the end, as
    /// `ZMQSocket.receive(maxFrames:)` does.
    package func takeFrames() -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(count + 1)
        for i in 0..<count {
            let frame = Frame()
            frame.withMsg { _ = zmq_msg_move($0, msgs + i) }
            frames.append(frame)
        }
        if wasPacked, frames.count > 1 {
            // Frame 1 is where the core reads the connection's User-Id.
            let keeper = Frame()
            keeper.withMsg { _ = zmq_msg_copy($0, packed) }
            frames[1].metadataSource = keeper
        }
        if isTruncated { frames.append(Frame()) }
        count = 0
        return frames
    }
}

/// The outcome of a send that must not block.
package enum SendStatus: Equatable {
    case sent
    /// `EAGAIN`: the pipe is full (high-water mark); nothing was queued.
    case full
    /// Any other error, with its errno (`EHOSTUNREACH`: the peer is gone).
    case failed(Int32)

    @inline(__always) init(_ rc: Int32) {
        if rc >= 0 { self = .sent; return }
        let err = zmq_errno()
        self = err == EAGAIN ? .full : .failed(err)
    }
}

extension ZMQSocket {
    /// Sends `bytes` as one frame without waiting; libzmq copies them.
    @inline(__always) package func sendBytes(_ bytes: UnsafeRawBufferPointer, more: Bool) -> SendStatus {
        SendStatus(zmq_send(handle, bytes.baseAddress, bytes.count, (more ? ZMQ_SNDMORE : 0) | ZMQ_DONTWAIT))
    }
}

/// `zmq_msg_t`s kept between messages, `parts` per entry, in chunks that never move (a
/// small message keeps its bytes inside its `zmq_msg_t`, so the storage must stay put).
/// Entries are addressed by index; the owner keeps track of which are in use.
///
/// Owned by one thread.
package final class MessageStore {
    private let parts: Int
    private static let chunkEntries = 1_024
    @exclusivity(unchecked) private var chunks: [UnsafeMutablePointer<zmq_msg_t>] = []

    package init(parts: Int) { self.parts = parts }

    deinit {
        for chunk in chunks {
            for i in 0..<(Self.chunkEntries * parts) { zmq_msg_close(chunk + i) }
            chunk.deallocate()
        }
    }

    /// The number of entries there is room for.
    package var capacity: Int { chunks.count * Self.chunkEntries }

    /// Makes room for entries up to `index`.
    package func reserve(upTo index: Int) {
        while index >= capacity {
            let chunk = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: Self.chunkEntries * parts)
            for i in 0..<(Self.chunkEntries * parts) { zmq_msg_init(chunk + i) }
            chunks.append(chunk)
        }
    }

    @inline(__always) fileprivate func pointer(_ slot: Int, _ part: Int) -> UnsafeMutablePointer<zmq_msg_t> {
        chunks[slot / Self.chunkEntries] + ((slot % Self.chunkEntries) * parts + part)
    }

    /// The bytes of a stored part, valid until it is sent or released.
    @inline(__always) package func bytes(_ slot: Int, _ part: Int) -> UnsafeRawBufferPointer {
        let m = pointer(slot, part)
        let n = zmq_msg_size(m)
        return UnsafeRawBufferPointer(start: n == 0 ? nil : UnsafeRawPointer(zmq_msg_data(m)), count: n)
    }

    /// Sends a stored part (it is empty after a successful send).
    @inline(__always) package func send(_ slot: Int, _ part: Int, on socket: ZMQSocket, more: Bool) -> SendStatus {
        SendStatus(zmq_msg_send(pointer(slot, part), socket.handle, (more ? ZMQ_SNDMORE : 0) | ZMQ_DONTWAIT))
    }

    /// Stores a fresh frame of `count` bytes that `fill` writes.
    @inline(__always) package func set(_ slot: Int, _ part: Int, count: Int, fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        let m = pointer(slot, part)
        zmq_msg_close(m)
        zmq_msg_init_size(m, count)
        if count > 0 { fill(zmq_msg_data(m)!.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Empties a stored part (releases what it held).
    @inline(__always) package func release(_ slot: Int, _ part: Int) {
        let m = pointer(slot, part)
        zmq_msg_close(m)
        zmq_msg_init(m)
    }

    /// A `Frame` holding a copy of a stored part (libzmq shares large contents).
    package func frame(_ slot: Int, _ part: Int) -> Frame {
        let f = Frame()
        f.withMsg { _ = zmq_msg_copy($0, pointer(slot, part)) }
        return f
    }
}
