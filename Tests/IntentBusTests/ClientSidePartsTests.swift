import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusTestSupport
@testable import PluginHost

/// The client side's rules as parts, driven without a core: a keyed client's rights
/// (`Authentication`), the errors that say why no plugin serves an intent
/// (`UnservedIntent`), and admission once a plugin is chosen (`Admission.pluginProblem`). The core carries these out (RouterCore+Requests.swift).
@Suite("Client side parts")
struct ClientSidePartsTests {
    private static func host(clients: [ClientGrant] = []) throws -> HostSettings {
        let text = "host:\n  state_dir: /nonexistent/client-parts/state\nplugins: []\n"
        var host = try ManifestLoader.load(text: text, path: "/nonexistent/client-parts/plugins.yaml").host
        host.clients = clients
        return host
    }

    private static func request(_ intent: String) -> WireMessage {
        WireMessage(kind: .request, requestId: "r1", intent: intent, header: nil, body: [:])
    }

    @Test("rights: no grant, an intent outside the grant, acting as another client, the rate; options get the key's name")
    func rights() throws {
        var alice = ClientGrant(name: "alice", publicKey: "")
        alice.intents = ["Echo*"]
        alice.ratePerSecond = 1
        let keyed = Authentication(host: try Self.host(clients: [alice]), clientKeysRequired: true)
        let state = ClientState(identity: Data([1]))
        var options = JSON.object([:])
        #expect(keyed.rightsProblem(nil, Self.request("Echo"), state, options: &options, now: 0)?.code == .forbidden)
        let outside = keyed.rightsProblem(alice, Self.request("Other"), state, options: &options, now: 0)
        #expect(outside?.code == .forbidden && outside?.message.contains("may not call Other (allowed: Echo*)") == true)
        var claims = JSON.object(["client": "bob"])
        let impostor = keyed.rightsProblem(alice, Self.request("Echo"), state, options: &claims, now: 0)
        #expect(impostor?.message == "client alice may not act as client bob")
        #expect(keyed.rightsProblem(alice, Self.request("Echo"), state, options: &options, now: 0) == nil)
        #expect(options["client"] == "alice" && options["authenticated"] == "alice")
        let second = keyed.rightsProblem(alice, Self.request("ib.ping"), state, options: &options, now: 1)
        #expect(second?.code == .busy && second?.details["retry_after_ms"] == .int(1_000), "ib.ping is allowed, but counts")
        let open = Authentication(host: try Self.host(), clientKeysRequired: false)
        var untouched = JSON.object([:])
        #expect(open.rightsProblem(nil, Self.request("Anything"), state, options: &untouched, now: 0) == nil && untouched == [:])
    }

    @Test("choice changes: one's own without manage_choices, anyone's with it, nobody's unauthenticated")
    func choiceChanges() throws {
        var admin = ClientGrant(name: "admin", publicKey: "")
        admin.manageChoices = true
        let keyed = Authentication(host: try Self.host(clients: [ClientGrant(name: "alice", publicKey: ""), admin]),
                                   clientKeysRequired: true)
        func problem(_ who: String?, _ body: JSON) -> BusError? {
            keyed.choiceChangeProblem(ControlRequest(intent: "ib.choices.set", options: who.map { ["authenticated": .string($0)] } ?? [:],
                                                     body: body))
        }
        #expect(problem("alice", ["client": "alice"]) == nil)
        #expect(problem("alice", ["client": "alice", "all": true])?.code == .forbidden)
        #expect(problem("alice", ["client": "bob"])?.message.hasPrefix("client alice may change only its own") == true)
        #expect(problem("admin", ["client": "bob"]) == nil)
        #expect(problem(nil, ["client": "alice"])?.message == "not authenticated")
    }

    @Test("admission once chosen: a plugin disabled at run time says so; the unserved-intent errors name the plugins")
    func chosen() throws {
        let manifest = try ManifestLoader.load(text: TestManifest.core([
            .core("a", intents: ["Echo"]), .core("b", intents: ["Echo"]),
            TestManifest.Plugin.core("c", intents: ["Off"]).with { $0.enabled = false },
        ]).yaml, path: "/nonexistent/client-parts/plugins.yaml")
        let recorder = PluginFleetTests.Recorder()
        let fleet = PluginFleet(plugins: manifest.plugins, logger: Logger(label: "parts", minimumLevel: .error) { _ in },
                                effects: recorder)
        fleet.host = recorder
        let unknown = UnservedIntent.unknown("echo", fleet.routes)
        #expect(unknown.code == .unknownIntent && unknown.message.hasSuffix("did you mean \"Echo\"?"))
        #expect(UnservedIntent.disabled("Off", fleet.disabledClaims["Off"] ?? [], fleet.slots).message
                == "plugin c, the only one claiming Off, is disabled in the manifest (enabled: false)")
        func problem(_ index: Int, full: Bool = false) -> BusError? {
            Admission.pluginProblem(fleet.slots[index], intent: "Echo", options: [:],
                                    authentication: Authentication(host: manifest.host, clientKeysRequired: false),
                                    retrySpawn: { _ in Issue.record("no failed spawn to retry"); return false },
                                    full: { _ in full })
        }
        #expect(problem(0) == nil)
        #expect(problem(0, full: true)?.code == .busy)
        _ = fleet.control(ControlRequest(intent: "ib.plugins.disable", options: [:], body: ["plugin": "a"]))
        #expect(problem(0)?.message == "plugin a is disabled (ib.plugins.disable)")
        #expect(problem(1) == nil)
    }
}
