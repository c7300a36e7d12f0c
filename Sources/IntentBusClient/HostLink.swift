import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// One host a client knows: its endpoint, the DEALER connected to it, the monitor that
/// says when that connection drops, and when the host last failed.
///
/// Threading: the client's thread only (it owns two ZeroMQ sockets).
final class HostLink {
    let endpoint: String
    private let context: ZMQContext
    private let curve: (keys: CurveKeyPair, serverKey: String)?
    private(set) var socket: ZMQSocket
    private var monitor: SocketMonitor
    /// Sockets made so far, so that each monitor has an inproc endpoint of its own.
    private var generation = 0
    private let name: String
    /// When this host was last lost or unreachable (monotonic ns); nil: never.
    var lastFailure: UInt64?
    /// The packed form (docs/protocol.md §2.1), on CURVE connections: announced with a
    /// packed HEARTBEAT before the first message; used once the host answers one packed
    /// message in the packed form (a host that does not pack answers in six frames, and
    /// the client goes on in six).
    private var announced = false
    /// The host sent a packed message on this connection: it reads packed ones.
    private(set) var hostPacks = false

    init(endpoint: String, name: String, context: ZMQContext,
         curve: (keys: CurveKeyPair, serverKey: String)?) throws(ZMQError) {
        self.endpoint = endpoint
        self.name = name
        self.context = context
        self.curve = curve
        (socket, monitor) = try Self.open(endpoint, name: "\(name)-0", context: context, curve: curve)
    }

    deinit { closeSockets() }

    /// A DEALER connected to `endpoint`, with a monitor reading its connection events.
    private static func open(_ endpoint: String, name: String, context: ZMQContext,
                             curve: (keys: CurveKeyPair, serverKey: String)?) throws(ZMQError) -> (ZMQSocket, SocketMonitor) {
        let socket = try ZMQSocket(context, .dealer)
        if let curve { try socket.makeCurveClient(curve.keys, serverKey: curve.serverKey) }
        // A request is queued only to a host that is connected: one for a host that is not
        // there must not wait in the socket and run when a host binds the endpoint later,
        // after the client gave up on it (docs/protocol.md, "Several hosts").
        try socket.setImmediate()
        let address = "inproc://intentbus-client-\(name)"
        try socket.monitor(at: address)
        let monitor = SocketMonitor(context: context)
        try monitor.connect(address)
        try socket.connect(endpoint)
        return (socket, monitor)
    }

    /// Forgets everything queued for the host and connects afresh: called when the host is
    /// lost, so that nothing sent to it before is delivered to whichever process binds
    /// the endpoint next.
    func reset() throws(ZMQError) {
        closeSockets()
        generation += 1
        (announced, hostPacks) = (false, false)
        (socket, monitor) = try Self.open(endpoint, name: "\(name)-\(generation)", context: context, curve: curve)
    }

    /// The sockets to wait on for the host's messages and for connection events.
    var pollSockets: [ZMQSocket] { [socket] + monitor.readableSockets }

    /// Whether the connection dropped since the last call (a peer that goes away closes
    /// its end: the kernel does that for a killed process too). Never blocks.
    func connectionDropped() -> Bool {
        guard let events = try? monitor.events(timeoutMs: 0) else { return false }
        return events.contains { $0.event.kind == .disconnected }
    }

    /// Sends one message within `wait`; false when the host took nothing in that time
    /// (no connection to it).
    func send(_ frames: [Frame], wait: Duration) throws(ZMQError) -> Bool {
        try socket.setSendTimeout(milliseconds: Int32(clamping: wait.wholeMilliseconds))
        if curve != nil, !announced, let beat = Frame.packing(WireMessage(kind: .heartbeat, header: nil, body: nil).frames[...]) {
            guard try socket.send([beat]) else { return false }
            announced = true
        }
        return try socket.send(outgoing(frames))
    }

    /// Sends one message at once (`dontWait`: false when the host's queue is full).
    @discardableResult
    func send(_ frames: [Frame], dontWait: Bool) throws(ZMQError) -> Bool {
        try socket.send(outgoing(frames), dontWait: dontWait)
    }

    /// The frames to send: one packed frame once the host packs, else the six.
    private func outgoing(_ frames: [Frame]) -> [Frame] {
        guard hostPacks, let packed = Frame.packing(frames[...]) else { return frames }
        return [packed]
    }

    /// Decodes a message the host sent, in either form; a packed one says the host packs.
    func decode(_ frames: [Frame]) throws(WireError) -> WireMessage {
        guard frames.count == 1, frames[0].isPacked else { return try WireMessage.decode(frames[...]) }
        let six = try frames[0].unpacked()
        hostPacks = true
        return try WireMessage.decode(six[...])
    }

    /// The monitor is stopped before it is closed: libzmq sends its events with a blocking
    /// send, which would otherwise hang its I/O thread.
    private func closeSockets() {
        socket.stopMonitor()
        monitor.close()
        socket.close()
    }
}
