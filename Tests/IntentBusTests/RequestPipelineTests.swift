import Foundation
import IntentBus
import IntentBusManifest
@testable import PluginHost
import Testing
@testable import IntentBusTestSupport

/// The request pipeline as a part of its own (Routing/Pipeline/): no `RouterCore`, a real
/// `PluginFleet` whose host it is, and a recorder for the shell's effects and the core's
/// side (`PipelineHost`), so each test follows an exchange from open to its final answer.
@Suite("Request pipeline: exchanges from open to final, without a core")
struct RequestPipelineTests {
    final class Recorder: RouterEffects, PipelineHost {
        var clock: UInt64 = 1_000_000_000
        var spawned: [(index: Int, pid: pid_t, token: String)] = []
        var toPlugins: [(identity: String, kind: MessageKind, requestId: String)] = []
        var toClients: [(kind: MessageKind, requestId: String, code: String?)] = []
        /// What `sendToPlugin` answers next (a connection that has gone: `.unreachable`).
        var pluginOutcome = PluginSendOutcome.sent
        var promoted: [String] = []
        let manifest: Manifest
        var limits: HostLimits { manifest.host.limits }
        var extensions: [any RouterExtension] { [] }
        var flows: FlowDriver { fatalError("no flows in these tests") }
        private var nextPid: pid_t = 3000

        init(_ manifest: Manifest) { self.manifest = manifest }

        func now() -> UInt64 { clock }
        func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
            toClients.append((msg.kind, msg.requestId, (try? msg.bodyJSON())?["code"]?.stringValue))
        }
        func clientBacklog(_ identity: Data) -> Int { 0 }
        func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome {
            let msg = try! WireMessage.decode(frames[...])
            toPlugins.append((String(decoding: identity, as: UTF8.self), msg.kind, msg.requestId))
            defer { pluginOutcome = .sent }
            return pluginOutcome
        }
        func forwardRaw(_ forward: borrowing RawForward, from m: RawMessage, store: MessageStore) -> SendStatus { .failed(EHOSTUNREACH) }
        var anyClientBacklog: Bool { false }
        func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError> {
            nextPid += 1
            spawned.append((index, nextPid, token))
            return .success(nextPid)
        }
        func signal(_ pid: pid_t, _ signal: Int32) {}
        func residentBytes(_ pid: pid_t) -> UInt64? { nil }

        func promoteAll() { promoted.append("all") }
        func promoteLane(slot: Int) { promoted.append("slot \(slot)") }
        func promoteLane(client identity: Data) { promoted.append("client") }
    }

    private func pipeline(_ plugins: [TestManifest.Plugin]) throws -> (RequestPipeline, Recorder) {
        let manifest = try ManifestLoader.load(text: TestManifest.core(plugins).yaml, path: "/nonexistent/pipeline-test/plugins.yaml")
        let recorder = Recorder(manifest)
        let logger = Logger(label: "pipeline", minimumLevel: .error) { _ in }
        let fleet = PluginFleet(plugins: manifest.plugins, logger: logger, effects: recorder)
        let pipeline = RequestPipeline(fleet: fleet, logger: logger, effects: recorder)
        fleet.host = pipeline
        pipeline.host = recorder
        return (pipeline, recorder)
    }

    /// The HELLO of the plugin's latest process, on a connection named after its id.
    private func hello(_ p: RequestPipeline, _ r: Recorder, _ id: String, intents: [String]) {
        let body: JSON = ["protocol": 1, "plugin": .string(id), "token": .string(r.spawned.last!.token), "pid": 1,
                          "intents": .array(intents.map { ["name": .string($0), "style": "plain"] })]
        let msg = WireMessage(kind: .hello, header: nil, body: body)
        p.fleet.handshake(RoutingEnvelope.split([Frame(id)] + msg.frames)!.0, msg)
    }

    /// Opens and dispatches a client's REQUEST `id` for `intent` to the plugin at `index`.
    @discardableResult
    private func request(_ p: RequestPipeline, _ id: String, _ intent: String, to index: Int = 0) -> Exchange {
        let msg = WireMessage(kind: .request, requestId: id, intent: intent, header: nil, body: [:])
        let envelope = RoutingEnvelope.split([Frame("client")] + msg.frames)!.0
        let exchange = p.open(envelope, msg, pluginIndex: index, options: .object([:]), header: Frame(), body: msg.body)
        p.dispatch(exchange, p.slots[index])
        return exchange
    }

    /// The plugin's REPLY to the last REQUEST it was sent.
    private func reply(_ p: RequestPipeline, _ r: Recorder, from index: Int = 0) {
        let wireId = r.toPlugins.last { $0.kind == .request }!.requestId
        p.pluginMessage(WireMessage(kind: .reply, requestId: wireId, intent: "I", header: nil, body: [:]), p.slots[index])
    }

    @Test("a request waits for its plugin's HELLO, goes out under its wire id, and its REPLY is the one final answer")
    func waitBeginReply() throws {
        let (p, r) = try pipeline([.core("a", intents: ["I"])])
        p.fleet.startEager()
        let exchange = request(p, "r1", "I")
        #expect(p.slots[0].waiting == [exchange.hostId] && r.toPlugins.isEmpty && p.book.count == 1)
        #expect(p.book.timers.count >= 1, "its deadline is armed while it waits")
        hello(p, r, "a", intents: ["I"])
        #expect(r.toPlugins.map(\.kind) == [.welcome, .request] && r.toPlugins[1].requestId == exchange.wireId)
        #expect(p.slots[0].inFlight == 1 && p.slots[0].waiting.isEmpty)
        reply(p, r)
        #expect(r.toClients.map(\.kind) == [.reply] && r.toClients[0].requestId == "r1")
        #expect(p.book.count == 0 && p.slots[0].inFlight == 0)
        reply(p, r)  // the same REPLY again: the exchange has ended
        #expect(r.toClients.count == 1)
    }

    @Test("the deadline ends a delivered request: CANCEL to the plugin, timeout to the client, once")
    func deadline() throws {
        // Its timeout is 2 s; heartbeats far apart, so that silence is not a hang here.
        let (p, r) = try pipeline([TestManifest.Plugin.core("a", intents: ["I"]).with { $0.heartbeat = "30s" }])
        p.fleet.startEager()
        hello(p, r, "a", intents: ["I"])
        let exchange = request(p, "r1", "I")
        r.clock += 3_000_000_000
        p.fireDueTimers()
        #expect(r.toPlugins.map(\.kind).suffix(2) == [.request, .cancel] && exchange.timeout == 2_000_000_000)
        #expect(r.toClients.map(\.code) == ["timeout"] && p.book.count == 0)
        reply(p, r)
        #expect(r.toClients.count == 1)
    }

    @Test("an idempotent request on a crashed plugin is delivered once more after its restart; the second crash fails it")
    func idempotentRetry() throws {
        let (p, r) = try pipeline([TestManifest.Plugin.core("a", intents: ["I"]).with { $0.extra = ["idempotent: [I]"] }])
        p.fleet.startEager()
        hello(p, r, "a", intents: ["I"])
        let exchange = request(p, "r1", "I")
        p.fleet.exited(index: 0, pid: r.spawned[0].pid, status: .signalled(SIGKILL))
        #expect(r.toClients.isEmpty && p.slots[0].waiting == [exchange.hostId] && p.slots[0].inFlight == 0,
                "retried, not failed: it waits for the restart")
        p.fleet.timerDue(.restart(index: 0))
        hello(p, r, "a", intents: ["I"])
        #expect(r.toPlugins.filter { $0.kind == .request }.count == 2 && p.slots[0].inFlight == 1)
        p.fleet.exited(index: 0, pid: r.spawned[1].pid, status: .signalled(SIGKILL))
        #expect(r.toClients.map(\.code) == ["plugin_crashed"] && p.book.count == 0, "once only")
        #expect(r.promoted.contains("slot 0"), "the lane's requests of the plugin are promoted before it fails them")
    }

    @Test("a REQUEST whose plugin connection has gone waits for the restart instead of failing; not while draining")
    func undelivered() throws {
        let (p, r) = try pipeline([.core("a", intents: ["I"])])
        p.fleet.startEager()
        hello(p, r, "a", intents: ["I"])
        r.pluginOutcome = .unreachable("gone")
        let exchange = request(p, "r1", "I")
        #expect(r.toClients.isEmpty && p.slots[0].waiting == [exchange.hostId] && p.slots[0].inFlight == 0)
        #expect(!exchange.isDelivered, "pending again, with what it was delivered with")
        p.fleet.exited(index: 0, pid: r.spawned[0].pid, status: .exited(1))
        p.fleet.timerDue(.restart(index: 0))
        hello(p, r, "a", intents: ["I"])
        #expect(r.toPlugins.filter { $0.kind == .request }.map(\.requestId) == [exchange.wireId, exchange.wireId])
        reply(p, r)
        #expect(r.toClients.map(\.kind) == [.reply] && p.book.count == 0 && p.slots[0].inFlight == 0)
        request(p, "r2", "I")
        p.beginDrain()
        r.pluginOutcome = .unreachable("gone")
        request(p, "r3", "I")  // admitted before the drain, say: it is not requeued now
        #expect(r.toClients.map(\.code).last == "plugin_unavailable" && p.draining && !p.stopping)
    }

    @Test("a drain with nothing open stops at once; a second signal stops a drain that has open requests")
    func drain() throws {
        let (p, r) = try pipeline([.core("a", intents: ["I"])])
        p.fleet.startEager()
        hello(p, r, "a", intents: ["I"])
        request(p, "r1", "I")
        p.beginDrain()
        #expect(p.draining && !p.stopping && r.promoted == ["all"])
        p.beginDrain()
        #expect(p.stopping && r.toClients.map(\.code) == ["shutting_down"] && p.book.count == 0)
        let (q, s) = try pipeline([.core("a", intents: ["I"])])
        q.beginDrain()
        #expect(q.stopping && s.toClients.isEmpty)
    }
}
