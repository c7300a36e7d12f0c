internal import CZeroMQ
import Foundation

/// The no-decode echo worker (`bench-worker --no-decode`): the least a far end can do and
/// still answer. It reads nothing but the frame count: every frame goes back as it came
/// (moved, not copied), except the kind, which becomes the constant `REPLY`, and the
/// header, which becomes a constant status header, because a client only counts a REPLY.
/// Frames are received into `zmq_msg_t`s that are reused, so there is no allocation per
/// message beyond libzmq's own. It is the baseline for the plugin SDK's own cost per
/// request (docs/performance.md).
///
/// Threading: runs on the calling thread, which owns the socket, until an error.
///
/// As a plugin (`--plugin`, started by a host that names it in its manifest), it says
/// HELLO for `EchoIntent` with the environment the host gives every plugin, waits for
/// WELCOME, and then does the same, answering only REQUESTs: the no-decode baseline
/// behind the host itself, for the same middle as the SDK's echo plugin.
struct RawEcho {
    let endpoint: String
    /// Set when running as a plugin: its id (for the header) and its token (for HELLO).
    var plugin: (id: String, token: String)?
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
        if let plugin { try handshake(socket, frames, plugin) }
        let headerText = "{\"plugin\":\"\(plugin?.id ?? "relay")\",\"status\":\"success\"}"
        let header = Array(headerText.utf8)
        let reply: StaticString = "REPLY"
        let request: StaticString = "REQUEST"
        let heartbeat: StaticString = "HEARTBEAT"
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
            guard kind >= (plugin == nil ? 1 : 0) else { continue }
            if plugin != nil {
                // Behind the host: REQUESTs are echoed, HEARTBEATs answered as the SDK does
                // (an idle plugin that stays silent is found hung), anything else ignored.
                guard zmq_msg_size(frames + kind) == request.utf8CodeUnitCount,
                      memcmp(zmq_msg_data(frames + kind), request.utf8Start, request.utf8CodeUnitCount) == 0 else {
                    if zmq_msg_size(frames + kind) == heartbeat.utf8CodeUnitCount,
                       memcmp(zmq_msg_data(frames + kind), heartbeat.utf8Start, heartbeat.utf8CodeUnitCount) == 0 {
                        try sendHeartbeat(socket)
                    }
                    continue
                }
            }
            for i in 0..<count {
                let flags: Int32 = i < count - 1 ? ZMQ_SNDMORE : 0
                let rc: Int32
                if i == kind {
                    rc = zmq_send(socket, reply.utf8Start, reply.utf8CodeUnitCount, flags)
                } else if i == head {
                    rc = header.withUnsafeBytes { zmq_send(socket, $0.baseAddress, $0.count, flags) }
                } else {
                    rc = zmq_msg_send(frames + i, socket, flags)
                }
                if rc < 0 { throw EchoFailure(function: "zmq_send", code: zmq_errno()) }
            }
        }
    }
}

extension RawEcho {
    /// A HEARTBEAT of its own: IB1, HEARTBEAT and four empty frames.
    private func sendHeartbeat(_ socket: UnsafeMutableRawPointer) throws {
        let parts: [StaticString] = ["IB1", "HEARTBEAT", "", "", "", ""]
        for (i, part) in parts.enumerated() {
            let rc = zmq_send(socket, part.utf8Start, part.utf8CodeUnitCount, i < parts.count - 1 ? ZMQ_SNDMORE : 0)
            if rc < 0 { throw EchoFailure(function: "zmq_send (HEARTBEAT)", code: zmq_errno()) }
        }
    }

    /// HELLO for `EchoIntent`, then waits up to 10 s for WELCOME.
    private func handshake(_ socket: UnsafeMutableRawPointer, _ frames: UnsafeMutablePointer<zmq_msg_t>,
                           _ plugin: (id: String, token: String)) throws {
        func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        let hello = "{\"intents\":[{\"name\":\"EchoIntent\",\"style\":\"plain\"}],\"metadata\":{},\"pid\":\(getpid()),"
            + "\"plugin\":\(quoted(plugin.id)),\"protocol\":1,\"token\":\(quoted(plugin.token))}"
        let parts = ["IB1", "HELLO", "", "", "", hello]
        for (i, part) in parts.enumerated() {
            let bytes = Array(part.utf8)
            let rc = bytes.withUnsafeBytes { zmq_send(socket, $0.baseAddress, $0.count, i < parts.count - 1 ? ZMQ_SNDMORE : 0) }
            if rc < 0 { throw EchoFailure(function: "zmq_send (HELLO)", code: zmq_errno()) }
        }
        var timeout: Int32 = 10_000
        zmq_setsockopt(socket, ZMQ_RCVTIMEO, &timeout, 4)
        var count = 0
        repeat {
            guard count < Self.maxFrames, zmq_msg_recv(frames + count, socket, 0) >= 0 else {
                throw EchoFailure(function: "zmq_msg_recv (WELCOME)", code: zmq_errno())
            }
            count += 1
        } while zmq_msg_more(frames + count - 1) != 0
        let kind = count > 1 ? String(decoding: UnsafeRawBufferPointer(start: zmq_msg_data(frames + 1), count: zmq_msg_size(frames + 1)), as: UTF8.self) : ""
        guard kind == "WELCOME" else { throw EchoFailure(function: "handshake: expected WELCOME, got \(kind)", code: 0) }
        timeout = -1
        zmq_setsockopt(socket, ZMQ_RCVTIMEO, &timeout, 4)
    }
}

/// A libzmq call that failed in the no-decode worker.
struct EchoFailure: Error, CustomStringConvertible {
    let function: String
    let code: Int32
    var description: String { "\(function) failed: \(String(cString: zmq_strerror(code)))" }
}
