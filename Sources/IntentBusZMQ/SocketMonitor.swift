internal import CZeroMQ
import Foundation
import IntentBusCore

/// One connection event of a monitored socket, as libzmq's socket monitor reports it
/// (`zmq_socket_monitor`): the event's first frame is a 16-bit event number and a 32-bit
/// value, both little-endian.
public struct SocketEvent: Sendable, Equatable {
    /// The events `ZMQSocket.monitor(at:)` asks for.
    public enum Kind: Sendable, Equatable {
        /// A peer's connection was accepted; `value` is its file descriptor.
        case accepted
        /// An accepted connection ended (the peer left, a handshake failed or timed
        /// out, or the host shut it down); `value` is the descriptor it had.
        case disconnected
        /// `accept` failed; `value` is the errno.
        case acceptFailed
        /// A handshake failed for a ZMTP or security reason; `value` is a
        /// `ZMQ_PROTOCOL_ERROR_*` code (`protocolError`).
        case handshakeFailedProtocol
        /// The ZAP handler refused the peer; `value` is its status code (400).
        case handshakeFailedAuth
        /// A handshake failed without a reason libzmq names (an I/O error, a timeout).
        case handshakeFailed
        /// Anything else libzmq sent.
        case other
    }

    public let kind: Kind
    public let value: Int32

    public init(kind: Kind, value: Int32) {
        self.kind = kind
        self.value = value
    }

    /// What a `handshakeFailedProtocol` value means, in words for the log.
    public var protocolError: String {
        switch value {
        case ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH: "the peer does not use CURVE (a mechanism mismatch: CURVE is required here)"
        case ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC: "its CURVE handshake did not decrypt (a wrong server key, or a secret key that does not match its public key)"
        case ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE: "its CURVE key exchange failed"
        default: "ZMTP protocol error 0x\(String(UInt32(bitPattern: value), radix: 16))"
        }
    }
}

extension SocketEvent {
    /// The host's reason for logging this event as a refused handshake, or nil.
    public var handshakeRefusal: String? {
        switch kind {
        case .handshakeFailedProtocol: protocolError
        case .handshakeFailed: "the handshake failed (libzmq gives no detail: an I/O error or its handshake timeout)"
        default: nil
        }
    }
}

extension ZMQSocket {
    /// Makes libzmq publish this socket's accepted, disconnected and accept-failed
    /// events on `endpoint` (an `inproc://` address that a `SocketMonitor` then reads).
    /// Call on the socket's thread, before `bind`, so that no connection goes uncounted.
    ///
    /// libzmq sends each event with a blocking send from its I/O thread: connect the
    /// `SocketMonitor` at once, and call `stopMonitor()` before the monitor closes, or
    /// that thread hangs.
    public func monitor(at endpoint: String) throws(ZMQError) {
        let events = ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_ACCEPT_FAILED
            | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
        try zmqCheck("zmq_socket_monitor", context: endpoint) { zmq_socket_monitor(handle, endpoint, events) }
    }

    /// Ends `monitor(at:)` (nothing once the socket is closed). The socket's thread.
    public func stopMonitor() {
        guard !closed else { return }
        _ = zmq_socket_monitor(handle, nil, 0)
    }
}

/// The reading end of one or more socket monitors.
///
/// Threading: one thread at a time (its PAIR sockets belong to it): connected on the
/// monitored sockets' thread, then handed to a reading thread. The receive queue is
/// unbounded (ZMQ_RCVHWM 0) on purpose: a full queue would block libzmq's I/O thread,
/// which sends monitor events with a blocking send.
public final class SocketMonitor {
    private let context: ZMQContext
    private var sockets: [ZMQSocket] = []
    private var poller = Poller([])

    public init(context: ZMQContext) { self.context = context }

    /// Connects to a monitor endpoint that `ZMQSocket.monitor(at:)` named; `events`
    /// then tells its events by the number of this call (0, 1, …).
    public func connect(_ endpoint: String) throws(ZMQError) {
        let socket = try ZMQSocket(context, .pair)
        try socket.setOption(ZMQ_RCVHWM, 0)
        try socket.connect(endpoint)
        sockets.append(socket)
        poller = Poller(sockets)
    }

    /// Waits up to `timeoutMs` milliseconds for events, then returns every event waiting,
    /// each with the index of its endpoint (`connect`'s order; empty after a timeout).
    public func events(timeoutMs: Int) throws(ZMQError) -> [(source: Int, event: SocketEvent)] {
        try poller.wait(timeoutMs: timeoutMs)
        var events: [(source: Int, event: SocketEvent)] = []
        for (index, socket) in sockets.enumerated() where poller.isReady(index) {
            while let frames = try socket.receive(dontWait: true, maxFrames: 2) {
                if let event = Self.decode(frames.first) { events.append((index, event)) }
            }
        }
        return events
    }

    /// The PAIR sockets events arrive on, to wait on them in a `Poller` beside other
    /// sockets (then `events(timeoutMs: 0)` reads them).
    public var readableSockets: [ZMQSocket] { sockets }

    /// Closes the PAIR sockets (the monitored sockets close their ends themselves).
    public func close() { sockets.forEach { $0.close() } }

    private static func decode(_ frame: Frame?) -> SocketEvent? {
        guard let frame, frame.count == 6 else { return nil }
        return frame.withBytes { bytes -> SocketEvent in
            let number = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
            var value: UInt32 = 0
            for i in 0..<4 { value |= UInt32(bytes[2 + i]) << (8 * UInt32(i)) }
            let kind: SocketEvent.Kind = switch Int32(number) {
            case ZMQ_EVENT_ACCEPTED: .accepted
            case ZMQ_EVENT_DISCONNECTED: .disconnected
            case ZMQ_EVENT_ACCEPT_FAILED: .acceptFailed
            case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: .handshakeFailedProtocol
            case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: .handshakeFailedAuth
            case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL: .handshakeFailed
            default: .other
            }
            return SocketEvent(kind: kind, value: Int32(bitPattern: value))
        }
    }
}
