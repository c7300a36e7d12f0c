internal import CZeroMQ
import Foundation

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
