// The router core's types are internal to PluginHost: this file reaches them through a
// @testable import, which SwiftPM allows only where PluginHost is built for testing (debug
// builds, as `swift build` and `swift test` make them). A release build compiles this
// module without the harness; the tests themselves are debug-only for the same reason.
#if DEBUG
import Foundation
import IntentBus
@testable import PluginHost

/// Drives a `RouterCore` with no process and no socket: it records what the core asks
/// for (sends, spawns, signals) and keeps a clock the test moves.
final class CoreHarness: RouterEffects {
    struct Sent {
        let to: String
        let msg: WireMessage
    }

    private(set) var core: RouterCore!
    var clock: UInt64 = 1_000_000_000
    /// Messages to clients and plugins, in order; `to` is the client's or plugin's name.
    var sent: [Sent] = []
    var spawned: [(id: String, pid: pid_t, token: String)] = []
    var signalled: [(pid: pid_t, signal: Int32)] = []
    /// Clients whose pipe the test declares full (backlog sizes).
    var backlog: [String: Int] = [:]
    /// Plugins whose pipe the test declares full.
    var fullPlugins: Set<String> = []
    /// Plugins whose connection is gone (EHOSTUNREACH): nothing sent to them arrives.
    var unreachablePlugins: Set<String> = []
    /// Plugins that no longer answer anything (SIGSTOPped, say); the others answer each
    /// HEARTBEAT at the next step of `advance`.
    var frozen: Set<String> = []
    private var heartbeatsToAnswer: [String] = []
    private var nextPid: pid_t = 1000
    private(set) var posted: [RouterEvent] = []
    let logLines = LogLines()

    convenience init(_ manifest: TestManifest) throws {
        try self.init(manifest: manifest.yaml)
    }

    init(manifest yaml: String) throws {
        let manifest = try ManifestLoader.load(text: yaml, path: "/nonexistent/core-test/plugins.yaml")
        let lines = logLines
        let logger = Logger(label: "core", minimumLevel: .debug) { lines.add($0) }
        core = RouterCore(manifest: manifest, logger: logger, effects: self, post: { _ in })
        core.start()
    }

    // MARK: RouterEffects

    func now() -> UInt64 { clock }
    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        sent.append(Sent(to: String(decoding: envelope.identity, as: UTF8.self), msg: msg))
    }
    func clientBacklog(_ identity: Data) -> Int { backlog[String(decoding: identity, as: UTF8.self)] ?? 0 }
    func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome {
        let name = String(decoding: identity, as: UTF8.self)
        if fullPlugins.contains(name) { return .full }
        if unreachablePlugins.contains(name) { return .unreachable("Host unreachable") }
        guard let msg = try? WireMessage.decode(frames[...]) else { return .unreachable("undecodable") }
        if msg.kind == .heartbeat {
            if !frozen.contains(name) { heartbeatsToAnswer.append(name) }
            return .sent
        }
        sent.append(Sent(to: name, msg: msg))
        return .sent
    }
    func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError> {
        nextPid += 1
        spawned.append((spec.id, nextPid, token))
        return .success(nextPid)
    }
    func signal(_ pid: pid_t, _ signal: Int32) { signalled.append((pid, signal)) }

    /// Where the relay lane's forwards go when a test turns the lane on: real sockets
    /// (frontend, backend) the test reads at their DEALER ends; without them a forward
    /// is refused (`.failed`) and the general path handles the message.
    var rawSockets: (frontend: ZMQSocket, backend: ZMQSocket)?
    func forwardRaw(_ forward: borrowing RawForward, from m: RawMessage, store: MessageStore) -> SendStatus {
        guard let rawSockets else { return .failed(EHOSTUNREACH) }
        return forward.send(on: forward.side == .plugins ? rawSockets.backend : rawSockets.frontend, from: m, store: store)
    }
    var anyClientBacklog: Bool { backlog.values.contains { $0 > 0 } }

    // MARK: Driving it

    /// A plugin process says HELLO on its own connection (named after its id).
    func hello(_ id: String, intents: [String], style: String = "plain") {
        let token = spawned.last { $0.id == id }?.token ?? ""
        let body: JSON = ["protocol": 1, "plugin": .string(id), "token": .string(token), "pid": 1,
                          "intents": .array(intents.map { ["name": .string($0), "style": .string(style)] })]
        core.pluginFrames([Frame(id)] + WireMessage(kind: .hello, header: nil, body: body).frames)
    }

    func client(_ name: String, _ kind: MessageKind, _ id: String, _ intent: String = "I",
                header: JSON? = nil, body: JSON? = nil) {
        core.clientFrames([Frame(name)] + WireMessage(kind: kind, requestId: id, intent: intent, header: header, body: body).frames)
    }

    func plugin(_ name: String, _ kind: MessageKind, _ hostId: String, header: JSON? = nil, body: JSON? = nil) {
        core.pluginFrames([Frame(name)] + WireMessage(kind: kind, requestId: hostId, intent: "I", header: header, body: body).frames)
    }

    /// Moves the clock in steps of at most 100 ms, firing what is due and letting live
    /// plugins answer their heartbeats after each step.
    func advance(milliseconds: UInt64) {
        var left = milliseconds
        while left > 0 {
            let step = min(left, 100)
            left -= step
            clock += step * 1_000_000
            core.fireDueTimers()
            let answering = heartbeatsToAnswer
            heartbeatsToAnswer.removeAll()
            for name in answering {
                core.pluginFrames([Frame(name)] + WireMessage(kind: .heartbeat, header: nil, body: nil).frames)
            }
        }
    }

    /// Takes what was sent since the last call.
    func take() -> [Sent] {
        defer { sent.removeAll() }
        return sent
    }

    /// The last REQUEST a plugin received.
    func lastRequest(to plugin: String) -> WireMessage? {
        sent.last { $0.to == plugin && $0.msg.kind == .request }?.msg
    }
}
#endif
