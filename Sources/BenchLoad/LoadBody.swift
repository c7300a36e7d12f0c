internal import CZeroMQ
import Foundation

/// The load process's libzmq context, with one I/O thread like every other process on
/// the measured paths.
final class LeanContext {
    let handle: UnsafeMutableRawPointer

    init() {
        guard let ctx = zmq_ctx_new() else { fatalError("zmq_ctx_new failed: out of memory") }
        handle = ctx
        _ = zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, 4096)
    }

    deinit { _ = zmq_ctx_term(handle) }
}

/// A request body prepared once and shared by every request of a round (`zmq_msg_copy`
/// counts references instead of copying the bytes).
final class LoadBody {
    let msg: UnsafeMutablePointer<zmq_msg_t>
    let count: Int

    /// A body of exactly `size` bytes that is valid JSON: one string parameter named `key`.
    init(size: Int, key: String) {
        let text = "{\"\(key)\":\"" + String(repeating: "x", count: max(0, size - key.utf8.count - 7)) + "\"}"
        let bytes = Array(text.utf8)
        count = bytes.count
        msg = .allocate(capacity: 1)
        zmq_msg_init_size(msg, bytes.count)
        bytes.withUnsafeBytes { src in
            if let base = src.baseAddress, !bytes.isEmpty { memcpy(zmq_msg_data(msg), base, bytes.count) }
        }
    }

    deinit {
        zmq_msg_close(msg)
        msg.deallocate()
    }
}

/// A load process step that could not run.
struct LoadFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
