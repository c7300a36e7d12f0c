import Foundation
import IntentBus
@testable import PluginHost
import Testing
@testable import IntentBusTestSupport

/// MDP through the router core (CoreHarness: no socket, no process): an MDP client's
/// request is an ordinary client request whose answers become one MDP reply, and an
/// `mdp_worker` entry is a claimant slot like any plugin. Also the manifest keys.
@Suite("Majordomo in the core")
struct MajordomoCoreTests {
    private let manifest = """
    host:
      state_dir: /nonexistent/mdp-core/state
      mdp: ipc:///nonexistent/mdp-core/mdp.sock
    plugins:
      - id: a
        exec: /bin/true
        IntentsSupported: [I, Shared]
        timeout: 2s
      - id: weather
        name: Weather workers
        mdp_worker: true
        IntentsSupported: [Shared, W]
        timeout: 2s
    """

    /// The stand-in connection of the `weather` entry, as the harness names it.
    private let standIn = Data("weather-workers".utf8)

    @Test("an mdp_worker entry waits until attached, then its held requests go out; it is offered in the choice prompt")
    func attachAndChoice() throws {
        let h = try CoreHarness(manifest: manifest)
        #expect(h.spawned.map(\.id) == ["a"])  // never spawned
        h.hello("a", intents: ["I", "Shared"])
        _ = h.take()
        h.client("c", .request, "r1", "W", body: ["x": 1])
        #expect(h.take().isEmpty)  // held: no worker yet
        #expect(!h.core.majordomoRoutes.serves("W") { _ in 0 })
        h.core.majordomoAttach(1, identity: standIn)
        let delivered = try #require(h.lastRequest(to: "weather-workers"))
        #expect(try delivered.bodyJSON() == ["x": 1])
        h.core.pluginFrames([Frame(data: standIn)] + WireMessage(kind: .reply, requestId: delivered.requestId, intent: "W",
            header: ["plugin": "weather", "status": "success"], body: ["ok": true]).frames)
        let final = try #require(h.take().last?.msg)
        #expect(final.kind == .reply && final.requestId == "r1")
        #expect(h.core.majordomoRoutes.serves("W") { $0 == "W" ? 1 : 0 })
        #expect(h.core.majordomoRoutes.serves("I") { _ in 0 } && !h.core.majordomoRoutes.serves("Nope") { _ in 1 })
        // Contested with a plugin: the prompt names the entry like any claimant.
        h.client("c", .request, "r2", "Shared")
        let prompt = try #require(h.take().last?.msg)
        #expect(prompt.kind == .prompt)
        let options = try prompt.bodyJSON()["options"]?.arrayValue ?? []
        #expect(options.map { $0["id"] } == ["a", "weather"])
        #expect(options[1]["name"] == "Weather workers" && options[1]["state"] == "ready" && options[1]["style"] == "plain")
        // Detached only when it holds nothing.
        h.client("c", .answer, "r2", body: ["value": "weather"])
        #expect(h.lastRequest(to: "weather-workers") != nil)
        h.core.majordomoDetach(1)
        #expect(h.core.slots[1].stateName == "ready")
    }

    @Test("an MDP client: one reply for a REPLY, an ERROR, or a PROMPT (then the request is cancelled)")
    func clientReplies() throws {
        let h = try CoreHarness(manifest: manifest)
        h.hello("a", intents: ["I", "Shared"])
        _ = h.take()
        let identities = MajordomoIdentity()
        let clients = MajordomoClients(identities: identities, bodies: MajordomoFrames(identities: identities))
        let peer = Data("mdp-peer".utf8)
        let frames = clients.request(peer: peer, service: "I", serviceFrame: Data("I".utf8), body: Frame(#"{"k":2}"#), form: .envelope).frames
        h.core.clientFrames(frames)
        let delivered = try #require(h.lastRequest(to: "a"))
        _ = h.take()
        h.plugin("a", .reply, delivered.requestId, header: ["plugin": "a", "status": "success"], body: ["dialog": "Done.", "n": 1])
        let answer = try #require(h.take().last?.msg)
        guard case .reply(let to, let reply) = clients.fromCore(answer) else { throw Failure() }
        #expect(to == peer && reply.map(\.string).prefix(3) == ["", "MDPC01", "I"])
        #expect(try JSON.parse(reply[3].data) == ["status": "success", "plugin": "a", "dialog": "Done.", "result": ["dialog": "Done.", "n": 1]])
        #expect(clients.openCount == 0)
        guard case .none = clients.fromCore(answer) else { throw Failure() }  // nothing after the one reply

        // Contested intent: the plugin_choice PROMPT becomes prompt_required, and the
        // request is cancelled in the core; the `cancelled` that follows is dropped.
        h.core.clientFrames(clients.request(peer: peer, service: "Shared", serviceFrame: Data("Shared".utf8), body: Frame(), form: .body).frames)
        let prompt = try #require(h.take().last?.msg)
        guard case .replyAndCancel(_, let promptReply, let cancel) = clients.fromCore(prompt) else { throw Failure() }
        let error = try JSON.parse(promptReply[3].data)
        #expect(error["status"] == "error" && error["error"]?["code"] == "prompt_required")
        #expect(error["error"]?["details"]?["kind"] == "plugin_choice")
        h.core.clientFrames(cancel)
        let cancelled = try #require(h.take().last?.msg)
        #expect(cancelled.kind == .error)
        guard case .none = clients.fromCore(cancelled) else { throw Failure() }
        #expect(h.core.book.count == 0 && clients.openCount == 0)

        // An error from the host is the error reply.
        h.core.clientFrames(clients.request(peer: peer, service: "Nope", serviceFrame: Data("Nope".utf8), body: Frame(), form: .body).frames)
        guard case .reply(_, let unknown) = clients.fromCore(try #require(h.take().last?.msg)) else { throw Failure() }
        #expect(try JSON.parse(unknown[3].data)["error"]?["code"] == "unknown_intent")
    }

    @Test("stand-in identities are 14 bytes, never a libzmq peer's, and carry the slot")
    func identities() {
        let ids = MajordomoIdentity()
        let workers = ids.workers(slot: 3)
        #expect(ids.owns(workers) && ids.owns(ids.client(7)) && ids.slotIndex(workers) == 3)
        #expect(!ids.owns(MajordomoIdentity().workers(slot: 3)))  // another host's secret
        #expect(!ids.owns(Data([0, 1, 2, 3, 4])) && ids.isClient(ids.client(1)) && !ids.isClient(workers))
    }

    @Test("manifest: mdp_worker entries, host.mdp and its ranges are checked")
    func manifestChecks() throws {
        func problems(_ yaml: String) -> String {
            do { _ = try ManifestLoader.load(text: yaml, path: "/nonexistent/mdp-m/plugins.yaml"); return "" } catch {
                return error.description
            }
        }
        let ok = try ManifestLoader.load(text: manifest, path: "/nonexistent/mdp-core/plugins.yaml")
        #expect(ok.plugins[1].mdpWorker && ok.host.mdp?.heartbeat == .milliseconds(2_500) && ok.host.mdp?.liveness == 3)
        #expect(problems(manifest.replacingOccurrences(of: "mdp_worker: true", with: "mdp_worker: true\n    exec: /bin/true"))
            .contains("leave 'exec' out"))
        #expect(problems(manifest + "\n  - id: other\n    mdp_worker: true\n    IntentsSupported: [W]\n").contains("already served by mdp_worker entry weather"))
        #expect(problems(manifest.replacingOccurrences(of: "mdp: ipc", with: "mdp: udp")).contains("ipc:// or tcp://"))
        #expect(problems(manifest.replacingOccurrences(of: "  mdp: ", with: "  mdp_heartbeat: 10ms\n  mdp_liveness: 99\n  mdp: "))
            .contains("mdp_heartbeat"))
        #expect(problems(manifest.replacingOccurrences(of: "  mdp: ", with: "  mdp_liveness: 1\n  mdp: ")).contains("mdp_liveness"))
    }

    struct Failure: Error {}
}
