internal import CZeroMQ

/// The no-decode echo worker (`bench-worker --no-decode`): the least a far end can do and
/// still answer. It reads nothing but the frame count: every frame goes back as it came
/// (moved, not copied), except the kind, which becomes the constant `REPLY`, and the
/// header, which becomes a constant status header, because a client only counts a REPLY.
/// Frames are received into `zmq_msg_t`s that are reused, so there is no allocation per
/// message beyond libzmq's own. It is the baseline for the plugin SDK's own cost per
/// request (docs/performance.md).
///
/// Threading: runs on the calling thread, which owns the socket, until an error.
struct RawEcho {
    let endpoint: String
    static let maxFrames = 16

    func run() throws -> Never {
        guard let context = zmq_ctx_new(), let socket = zmq_socket(context, ZMQ_DEALER) else {
            throw EchoFailure(function: "zmq_socket", code: zmq_errno())
        }
        var hwm: Int32 = 100_000
        zmq_setsockopt(socket, ZMQ_SNDHWM, &hwm, 4)
        zmq_setsockopt(socket, ZMQ_RCVHWM, &hwm, 4)
        guard zmq_connect(socket, endpoint) == 0 else { throw EchoFailure(function: "zmq_connect", code: zmq_errno()) }
        let frames = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: Self.maxFrames)
        for i in 0..<Self.maxFrames { zmq_msg_init(frames + i) }
        let header: StaticString = "{\"plugin\":\"relay\",\"status\":\"success\"}"
        let reply: StaticString = "REPLY"
        while true {
            var count = 0
            repeat {
                guard count < Self.maxFrames else { throw EchoFailure(function: "more than 16 frames", code: 0) }
                while zmq_msg_recv(frames + count, socket, 0) < 0 {
                    guard zmq_errno() == EINTR else { throw EchoFailure(function: "zmq_msg_recv", code: zmq_errno()) }
                }
                count += 1
            } while zmq_msg_more(frames + count - 1) != 0
            // The relay's envelope (the client's identity) comes first; the six frames after
            // it are IB1, kind, id, intent, header, body.
            let kind = count - 5, head = count - 2
            guard kind >= 1 else { continue }
            for i in 0..<count {
                let flags: Int32 = i < count - 1 ? ZMQ_SNDMORE : 0
                let rc: Int32
                if i == kind {
                    rc = zmq_send(socket, reply.utf8Start, reply.utf8CodeUnitCount, flags)
                } else if i == head {
                    rc = zmq_send(socket, header.utf8Start, header.utf8CodeUnitCount, flags)
                } else {
                    rc = zmq_msg_send(frames + i, socket, flags)
                }
                if rc < 0 { throw EchoFailure(function: "zmq_send", code: zmq_errno()) }
            }
        }
    }
}

/// A libzmq call that failed in the no-decode worker.
struct EchoFailure: Error, CustomStringConvertible {
    let function: String
    let code: Int32
    var description: String { "\(function) failed: \(String(cString: zmq_strerror(code)))" }
}
