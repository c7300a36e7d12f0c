internal import CZeroMQ
import Foundation
import IntentBusCore

/// One frame of a multipart message: an owned `zmq_msg_t`.
///
/// Sending a frame moves its content into libzmq without a copy, after which the frame
/// is empty. A frame belongs to one thread at a time.
public final class Frame {
    /// The `zmq_msg_t` lives inside the object, so a frame is one heap allocation, not two
    /// (the object plus a separately allocated `zmq_msg_t` cost ~3,000 instructions per
    /// request on the host's hot path, docs/performance.md). A final class's stored
    /// property has a fixed address for the object's lifetime, which is what libzmq needs
    /// (a small message keeps its bytes inside the `zmq_msg_t`). The frame is owned by one
    /// thread at a time and the pointer is used only inside libzmq calls, so the runtime
    /// exclusivity check on every access buys nothing here.
    @exclusivity(unchecked) private var raw = zmq_msg_t()
    /// The frame whose connection metadata this one answers for (`property`): set on a
    /// frame split from a packed frame (`RawMessage.unpack`), which libzmq gives none.
    package var metadataSource: Frame?

    /// Calls `body` with the address of the frame's `zmq_msg_t`, for libzmq calls. The
    /// pointer is valid only inside `body` and never kept: every libzmq call on a frame,
    /// and every use of a pointer into its bytes, happens inside this scope.
    @inline(__always)
    func withMsg<R>(_ body: (UnsafeMutablePointer<zmq_msg_t>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointer(to: &raw, body)
    }

    /// An empty frame.
    public init() {
        withMsg { _ = zmq_msg_init($0) }
    }

    /// A frame holding a copy of `bytes`.
    public init<C: Collection>(bytes: C) where C.Element == UInt8 {
        withMsg { Self.fill($0, with: bytes) }
    }

    /// Initializes `msg` (uninitialized or closed) with a copy of `bytes`: one `memcpy`
    /// for contiguous bytes (an array), a byte loop otherwise.
    private static func fill<C: Collection>(_ msg: UnsafeMutablePointer<zmq_msg_t>, with bytes: C) where C.Element == UInt8 {
        let count = bytes.count
        zmq_msg_init_size(msg, count)
        guard count > 0 else { return }
        let dst = zmq_msg_data(msg)!.assumingMemoryBound(to: UInt8.self)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { src in
            dst.update(from: src.baseAddress!, count: count)
        }
        if copied == nil {
            var i = 0
            for b in bytes { dst[i] = b; i += 1 }
        }
    }

    /// Replaces this frame's content with a copy of `bytes`, in place (no new object), as
    /// a receive into a reused frame does.
    package func setContent<C: Collection>(bytes: C) where C.Element == UInt8 {
        withMsg { msg in
            zmq_msg_close(msg)
            Self.fill(msg, with: bytes)
        }
    }

    /// A frame holding a copy of `data`.
    public convenience init(data: Data) {
        self.init(count: data.count) { dst in data.copyBytes(to: dst, count: data.count) }
    }

    /// A frame holding the UTF-8 bytes of `string`.
    public convenience init(_ string: String) {
        var s = string
        let count = s.utf8.count
        self.init(count: count) { dst in
            s.withUTF8 { src in
                if count > 0 { dst.update(from: src.baseAddress!, count: count) }
            }
        }
    }

    /// A frame of `count` bytes that `fill` writes.
    init(count: Int, fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        withMsg { msg in
            zmq_msg_init_size(msg, count)
            if count > 0 { fill(zmq_msg_data(msg)!.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    /// A frame that shares `frame`'s bytes and tells `held` when libzmq is done with them
    /// (HeldBytes.swift): the count rises by the size now and falls in `releaseCounted`.
    ///
    /// No copy of the bytes: a private `zmq_msg_copy` of `frame` (libzmq shares a large
    /// message's content by reference count) keeps them alive, and the new frame points
    /// at them with a free function that closes that copy. Copying them cost the host a
    /// `malloc` and a `memcpy` per direction of every request of 1 KiB or more, and, for
    /// a large one, fresh pages from the kernel each time (docs/performance.md, "The SDK's
    /// plain handler on large bodies"). Only the frame's bytes must not change while
    /// libzmq holds them, which is libzmq's rule for a copied message too: a `Frame`'s
    /// content is replaced (`setContent`), never written into, once it was received.
    package init(copyOf frame: Frame, heldIn held: HeldBytes) {
        let keeper = CountedKeeper.make(sharing: frame, held: held)
        let data = zmq_msg_data(CountedKeeper.message(of: keeper))
        let count = zmq_msg_size(CountedKeeper.message(of: keeper))
        held.add(count)
        withMsg { msg in
            if zmq_msg_init_data(msg, data, count, Frame.releaseCounted, keeper) != 0 {
                // Only ENOMEM: nothing is owned by libzmq then.
                Frame.releaseCounted(data, keeper)
                zmq_msg_init(msg)
            }
        }
    }

    /// libzmq's free function for counted frames: on libzmq's I/O thread (or the sender's,
    /// when a send fails), once per frame.
    private static let releaseCounted: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, hint in
        guard let hint else { return }
        CountedKeeper.release(hint.assumingMemoryBound(to: CountedKeeper.self))
    }

    deinit {
        withMsg { _ = zmq_msg_close($0) }
    }

    /// The number of bytes in the frame.
    public var count: Int { withMsg { zmq_msg_size($0) } }

    /// Calls `body` with the frame's bytes, without copying them.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withMsg { msg in
            let n = zmq_msg_size(msg)
            guard n > 0, let p = zmq_msg_data(msg) else {
                return try body(UnsafeRawBufferPointer(start: nil, count: 0))
            }
            return try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(p), count: n))
        }
    }

    /// A copy of the frame's bytes.
    public var data: Data { withBytes { Data($0) } }

    /// The frame decoded as UTF-8 (invalid bytes are replaced).
    public var string: String {
        withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The frame decoded as strict UTF-8, or nil when it is not valid UTF-8.
    public var validUTF8: String? { withBytes { String(validatingUTF8: $0) } }

    /// True when the frame's bytes equal `literal` (no allocation).
    public func equals(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard n == count else { return false }
        if n == 0 { return true }
        return withBytes { memcmp($0.baseAddress!, literal.utf8Start, n) == 0 }
    }

    /// Replaces this frame's content with a copy of `other`'s, in place (no new object).
    /// libzmq shares large contents by reference count and copies small ones inline.
    package func setContent(copyOf other: Frame) {
        withMsg { to in other.withMsg { from in _ = zmq_msg_copy(to, from) } }
    }

    /// A new frame with a copy of this frame's bytes.
    public func copy() -> Frame {
        let f = Frame()
        f.setContent(copyOf: self)
        return f
    }
}
