import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// One host's backend, for a plugin that serves several hosts (`INTENTBUS_BACKEND=A,B`,
/// docs/scale-out.md): its DEALER, the monitor that says when the connection drops, and
/// where the handshake with that host stands.
///
/// Threading: the plugin's loop thread only (it owns both sockets).
final class BackendLink {
    /// `hello`: HELLO sent; `ready`: WELCOME received; `idle`: lost or refused, HELLO
    /// again at `retryAt`.
    enum Stage { case idle, hello, ready }

    let index: Int
    let endpoint: String
    let socket: ZMQSocket
    let monitor: SocketMonitor
    var stage = Stage.idle
    var helloAt: UInt64 = 0
    var retryAt: UInt64 = 0
    /// How often the host was lost: what a request's messages carry, so that what a
    /// handler sends about a lost host's request never reaches the host greeted next.
    var generation = 0

    init(index: Int, endpoint: String, context: ZMQContext,
         curve: (keys: CurveKeyPair, serverKey: String)?) throws(ZMQError) {
        self.index = index
        self.endpoint = endpoint
        socket = try ZMQSocket(context, .dealer)
        try socket.setHighWaterMarks(send: 100_000, receive: 100_000)
        if let curve { try socket.makeCurveClient(curve.keys, serverKey: curve.serverKey) }
        // Nothing is queued for a host that is not there (a HELLO would wait in the socket
        // while it restarts); its loss is seen by the monitor. Sends never block the loop.
        try socket.setImmediate()
        try socket.setSendTimeout(milliseconds: 0)
        let address = "inproc://intentbus-plugin-\(getpid())-\(index)"
        try socket.monitor(at: address)
        monitor = SocketMonitor(context: context)
        try monitor.connect(address)
        try socket.connect(endpoint)
    }

    /// Whether the connection dropped since the last call. Never blocks.
    func connectionDropped() -> Bool {
        guard let events = try? monitor.events(timeoutMs: 0) else { return false }
        return events.contains { $0.event.kind == .disconnected }
    }

    /// The monitor is stopped before it is closed (libzmq sends its events blocking).
    func close() {
        socket.stopMonitor()
        monitor.close()
        socket.close()
    }

    /// The endpoints of `INTENTBUS_BACKEND` (separated by commas) paired with the host keys
    /// of `INTENTBUS_SERVER_KEY` (one for all, or one per backend in the same order).
    static func pairs(backend: String, serverKeys: String?) throws(PluginStartError) -> [(endpoint: String, serverKey: String?)] {
        let endpoints = backend.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let keys = (serverKeys ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if keys.count > 1 && keys.count != endpoints.count {
            throw PluginStartError(message: "INTENTBUS_SERVER_KEY names \(keys.count) host keys for \(endpoints.count) backends: give one key for all, or one per backend in the same order")
        }
        return endpoints.enumerated().map { i, e in (e, keys.count > 1 ? keys[i] : keys.first) }
    }
}

/// A handler's message for the host behind backend `link`, as it was when the request
/// came (`generation`; -1: whatever it is now, for the answers to joined repeats).
struct RoutedMessage: Sendable {
    let link: Int
    let generation: Int
    let message: OutgoingMessage
}
