import Foundation
import IntentBus
@testable import PluginHost
import Testing
@testable import IntentBusTestSupport

/// The plugin fleet as a part of its own (Routing/Fleet/): no `RouterCore`, only recorded
/// effects and a recorded request side (`FleetHost`), so each test sees which table the
/// fleet changed and which request-side step it asked for, in order.
@Suite("Plugin fleet: its tables and its host interface")
struct PluginFleetTests {
    /// Both the shell's effects and the request side, recording what the fleet asks.
    final class Recorder: RouterEffects, FleetHost {
        var clock: UInt64 = 1_000_000_000
        var spawned: [(index: Int, pid: pid_t, token: String)] = []
        var signalled: [(pid: pid_t, signal: Int32)] = []
        var toPlugins: [(identity: String, kind: MessageKind, body: JSON)] = []
        /// The request side's calls, as text: "beginWaiting a", "failInFlight a plugin_crashed", …
        var calls: [String] = []
        var armed: [(timer: RouterTimer, after: UInt64)] = []
        var stopping = false
        var draining = false
        var objection: String?
        private var nextPid: pid_t = 2000

        func now() -> UInt64 { clock }
        func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) { calls.append("sendToClient") }
        func clientBacklog(_ identity: Data) -> Int { 0 }
        func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome {
            let msg = try! WireMessage.decode(frames[...])
            toPlugins.append((String(decoding: identity, as: UTF8.self), msg.kind, (try? msg.bodyJSON()) ?? .null))
            return .sent
        }
        func forwardRaw(_ forward: borrowing RawForward, from m: RawMessage, store: MessageStore) -> SendStatus { .failed(EHOSTUNREACH) }
        var anyClientBacklog: Bool { false }
        func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError> {
            nextPid += 1
            spawned.append((index, nextPid, token))
            return .success(nextPid)
        }
        func signal(_ pid: pid_t, _ signal: Int32) { signalled.append((pid, signal)) }
        func residentBytes(_ pid: pid_t) -> UInt64? { nil }

        func arm(_ timer: RouterTimer, after nanoseconds: UInt64) { armed.append((timer, nanoseconds)) }
        func helloProblem(_ slot: PluginSlot, _ hello: JSON) -> String? { objection }
        func beginWaiting(_ slot: PluginSlot) { calls.append("beginWaiting \(slot.spec.id)") }
        func failInFlight(_ slot: PluginSlot, _ error: BusError) { calls.append("failInFlight \(slot.spec.id) \(error.code.rawValue)") }
        func failWaiting(_ slot: PluginSlot, _ error: BusError) { calls.append("failWaiting \(slot.spec.id) \(error.code.rawValue)") }
        func retryIdempotent(_ dead: PluginSlot, pid: pid_t, why: String) { calls.append("retryIdempotent \(dead.spec.id) \(pid)") }
    }

    private func fleet(_ plugins: [TestManifest.Plugin]) throws -> (PluginFleet, Recorder) {
        let manifest = try ManifestLoader.load(text: TestManifest.core(plugins).yaml, path: "/nonexistent/fleet-test/plugins.yaml")
        let recorder = Recorder()
        let fleet = PluginFleet(plugins: manifest.plugins, logger: Logger(label: "fleet", minimumLevel: .error) { _ in },
                                effects: recorder)
        fleet.host = recorder
        return (fleet, recorder)
    }

    /// The HELLO a spawned plugin sends, on a connection named after its id.
    private func hello(_ fleet: PluginFleet, _ id: String, token: String, intents: [String]) {
        let body: JSON = ["protocol": 1, "plugin": .string(id), "token": .string(token), "pid": 1,
                          "intents": .array(intents.map { ["name": .string($0), "style": "plain"] })]
        let msg = WireMessage(kind: .hello, header: nil, body: body)
        fleet.handshake(RoutingEnvelope.split([Frame(id)] + msg.frames)!.0, msg)
    }

    private func timers(_ r: Recorder) -> [String] { r.armed.map { "\($0.timer)" } }

    @Test("routes: claimants sorted by id, disabled ones apart, instances out of the table")
    func routes() throws {
        let (fleet, _) = try fleet([.core("b", intents: ["I"]), .core("a", intents: ["I", "J"]),
                                    TestManifest.Plugin.core("c", intents: ["I"]).with { $0.enabled = false },
                                    TestManifest.Plugin.core("d", intents: ["K"]).with { $0.instances = 3 }])
        #expect(fleet.slots.map(\.spec.id) == ["b", "a", "c", "d", "d", "d"], "instances get slots at the end")
        #expect(fleet.routes["I"] == [1, 0] && fleet.routes["J"] == [1], "sorted by plugin id, not by declaration")
        #expect(fleet.disabledClaims["I"] == [2] && fleet.routes["K"] == [3], "only the primary is routed to")
        #expect(fleet.slots[4].primaryIndex == 3 && fleet.slots[3].instanceSlots == [4, 5])
    }

    @Test("a HELLO: the connection is bound (a new epoch), WELCOME, a heartbeat armed, the waiting requests handed to the host")
    func helloAccepted() throws {
        let (fleet, r) = try fleet([.core("a", intents: ["I"])])
        fleet.startEager()
        #expect(r.spawned.count == 1 && fleet.slots[0].stateName == "starting")
        let epoch = fleet.routingEpoch
        hello(fleet, "a", token: r.spawned[0].token, intents: ["I"])
        #expect(fleet.identities[Data("a".utf8)] == 0 && fleet.routingEpoch != epoch)
        #expect(r.toPlugins.map(\.kind) == [.welcome] && fleet.slots[0].stateName == "ready")
        #expect(timers(r).contains { $0.hasPrefix("heartbeat") } && r.calls == ["beginWaiting a"])
    }

    @Test("a HELLO an extension objects to is refused; the process gets SIGTERM 2 s later unless it exits first")
    func helloRejected() throws {
        let (fleet, r) = try fleet([.core("a", intents: ["I"]), .core("b", intents: ["J"])])
        fleet.startEager()
        r.objection = "no"
        hello(fleet, "a", token: r.spawned[0].token, intents: ["I"])
        #expect(r.toPlugins.map(\.kind) == [.reject] && r.toPlugins[0].body["code"] == "bad_metadata")
        #expect(fleet.identities.isEmpty && fleet.rejectedPids == [r.spawned[0].pid] && r.calls.isEmpty)
        #expect(r.armed.last.map { "\($0.timer)" } == "stopRejected(pid: \(r.spawned[0].pid))" && r.armed.last?.after == 2_000_000_000)
        fleet.timerDue(.stopRejected(pid: r.spawned[0].pid))
        #expect(r.signalled.map(\.signal) == [SIGTERM] && fleet.rejectedPids.isEmpty)
        // b is rejected too, but exits by itself: reaped, it is never signalled.
        hello(fleet, "b", token: r.spawned[1].token, intents: ["J"])
        fleet.exited(index: 1, pid: r.spawned[1].pid, status: .exited(1))
        fleet.timerDue(.stopRejected(pid: r.spawned[1].pid))
        #expect(r.signalled.count == 1 && fleet.rejectedPids.isEmpty)
    }

    @Test("a crash: the host retries and fails what the plugin held, in that order; the restart is armed and spawns when due")
    func crash() throws {
        let (fleet, r) = try fleet([.core("a", intents: ["I"])])
        fleet.startEager()
        hello(fleet, "a", token: r.spawned[0].token, intents: ["I"])
        r.calls.removeAll()
        fleet.exited(index: 0, pid: r.spawned[0].pid, status: .signalled(SIGKILL))
        #expect(r.calls == ["retryIdempotent a \(r.spawned[0].pid)", "failInFlight a plugin_crashed"])
        #expect(fleet.identities.isEmpty && fleet.slots[0].stateName == "restarting")
        #expect(timers(r).last == "restart(index: 0)")
        fleet.timerDue(.restart(index: 0))
        #expect(r.spawned.count == 2 && fleet.slots[0].stateName == "starting")
    }

    @Test("DISCONNECT, or a routing id taken over on CURVE: the connection goes, what it held fails through the host")
    func connectionLost() throws {
        let (fleet, r) = try fleet([.core("a", intents: ["I"])])
        fleet.startEager()
        hello(fleet, "a", token: r.spawned[0].token, intents: ["I"])
        r.calls.removeAll()
        #expect(fleet.pluginMessageBound(Data("a".utf8), user: nil), "the same (absent) User-Id as its HELLO's")
        #expect(!fleet.pluginMessageBound(Data("a".utf8), user: "someone else"))
        #expect(fleet.identities.isEmpty && r.calls == ["failInFlight a plugin_unavailable"])
        #expect(fleet.pluginMessageBound(Data("a".utf8), user: "someone else"), "not a plugin's connection any more")
    }

    @Test("ib.plugins.disable: its waiting requests fail through the host and the process is stopped; enable starts it again")
    func disableAndEnable() throws {
        let (fleet, r) = try fleet([.core("a", intents: ["I"])])
        fleet.startEager()
        hello(fleet, "a", token: r.spawned[0].token, intents: ["I"])
        r.calls.removeAll()
        let off = fleet.control(ControlRequest(intent: "ib.plugins.disable", options: [:], body: ["plugin": "a"]))
        #expect((try? off.get())?["state"] == "stopping")
        #expect(r.calls.first == "failWaiting a plugin_unavailable" && fleet.identities.isEmpty)
        fleet.exited(index: 0, pid: r.spawned[0].pid, status: .exited(0))
        #expect(fleet.slots[0].stateName == "disabled" && r.spawned.count == 1)
        _ = fleet.control(ControlRequest(intent: "ib.plugins.enable", options: [:], body: ["plugin": "a"]))
        #expect(r.spawned.count == 2, "eager: started again")
        let unknown = fleet.control(ControlRequest(intent: "ib.plugins.restart", options: [:], body: ["plugin": "zz"]))
        #expect({ if case .failure(let e) = unknown { e.code == .unknownPlugin } else { false } }())
    }

    @Test("the host stopping: a crash arms no restart, and stopAll says DISCONNECT to the connected, SIGTERM to the rest")
    func hostStopping() throws {
        let (fleet, r) = try fleet([.core("a", intents: ["I"]), .core("b", intents: ["J"])])
        fleet.startEager()
        hello(fleet, "a", token: r.spawned[0].token, intents: ["I"])
        r.stopping = true
        r.armed.removeAll()
        fleet.stopAll()
        #expect(r.toPlugins.last?.kind == .disconnect && r.signalled.map(\.pid) == [r.spawned[1].pid])
        fleet.exited(index: 1, pid: r.spawned[1].pid, status: .signalled(SIGTERM))
        #expect(!timers(r).contains { $0.hasPrefix("restart") } && fleet.slots[1].pid == nil && !fleet.allExited)
    }
}
