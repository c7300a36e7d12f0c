internal import CZeroMQ

/// The load process's line to the benchmark driver: a DEALER with the process's name as
/// its routing id, connected to the driver's ROUTER. Commands come in as one JSON frame;
/// results go out as a JSON frame and, for a round, a frame of latency samples.
///
/// Threading: owned by the load process's one thread.
final class ControlChannel {
    private let socket: UnsafeMutableRawPointer
    /// Kept so that the context outlives the socket (`zmq_ctx_term` waits for it).
    private let context: LeanContext

    init(context: LeanContext, endpoint: String, name: String) throws {
        guard let s = zmq_socket(context.handle, ZMQ_DEALER) else { throw LoadFailure("zmq_socket (control)") }
        socket = s
        self.context = context
        var linger: Int32 = 0
        zmq_setsockopt(s, ZMQ_LINGER, &linger, 4)
        let id = Array(name.utf8)
        zmq_setsockopt(s, ZMQ_ROUTING_ID, id, id.count)
        guard zmq_connect(s, endpoint) == 0 else { throw LoadFailure("zmq_connect \(endpoint) (control)") }
    }

    deinit { zmq_close(socket) }

    /// Sends `text` and, when given, `samples` as a second frame (native-endian UInt32, ns).
    func send(_ text: String, samples: [UInt32]? = nil) throws {
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBytes { try part($0.baseAddress, $0.count, more: samples != nil) }
        if let samples {
            try samples.withUnsafeBytes { try part($0.baseAddress, $0.count, more: false) }
        }
    }

    private func part(_ p: UnsafeRawPointer?, _ n: Int, more: Bool) throws {
        while zmq_send(socket, p, n, more ? ZMQ_SNDMORE : 0) < 0 {
            guard zmq_errno() == EINTR else { throw LoadFailure("zmq_send (control): \(zmq_errno())") }
        }
    }

    /// Waits for the next command (the text of its first frame; further frames are dropped).
    func receive() throws -> String {
        var msg = zmq_msg_t()
        zmq_msg_init(&msg)
        defer { zmq_msg_close(&msg) }
        var text: String?
        while true {
            if zmq_msg_recv(&msg, socket, 0) < 0 {
                guard zmq_errno() == EINTR else { throw LoadFailure("zmq_msg_recv (control): \(zmq_errno())") }
                continue
            }
            if text == nil {
                let n = zmq_msg_size(&msg)
                text = n == 0 ? "" : String(decoding: UnsafeRawBufferPointer(start: zmq_msg_data(&msg), count: n), as: UTF8.self)
            }
            if zmq_msg_more(&msg) == 0 { return text ?? "" }
        }
    }
}
