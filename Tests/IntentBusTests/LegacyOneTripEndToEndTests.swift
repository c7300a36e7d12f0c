import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Legacy in one round trip (docs/protocol.md §8.9), end to end: the real host and the
/// real LegacyTest plugin, once announcing the `run` phase (the SDK's default) and once
/// announcing none (`LEGACY_PHASED`, as a plugin built before one-trip). The plugin logs
/// every REQUEST it receives, so the tests count its round trips.
@Suite("Legacy one trip end to end", .serialized)
struct LegacyOneTripEndToEndTests {
    /// A host in front of the LegacyTest plugin and the file its REQUESTs are logged to.
    struct Side {
        let host: TestHost
        let requests: String
        let client: IntentClient

        init(phased: Bool) throws {
            let dir = TempDir()
            requests = "\(dir.path)/requests.log"
            var env = ["LEGACY_REQUEST_LOG": requests]
            if phased { env["LEGACY_PHASED"] = "1" }
            host = try TestHost(TestManifest(.legacy(env: env)), dir: dir, waitReady: ["legacytest"])
            client = try host.client()
        }

        /// The REQUESTs logged since the last call, as "<intent> <phase>".
        func taken() -> [String] {
            defer { try? FileManager.default.removeItem(atPath: requests) }
            return calls(requests)
        }
    }

    /// The client-visible answer: the REPLY's header fields and body that don't depend on the run.
    static func visible(_ reply: IntentReply) -> [JSON] {
        [.string(reply.status), reply.header["code"] ?? .null, reply.body]
    }

    @Test("all parameters resolve: one REQUEST, and the same answer and dialog as the phased flow")
    func oneTrip() throws {
        let fast = try Side(phased: false)
        defer { fast.host.stop() }
        let slow = try Side(phased: true)
        defer { slow.host.stop() }
        let requests: [(String, JSON)] = [
            ("ResolveIntent", ["kind": "success", "target": "x"]),
            ("ResolveIntent", ["kind": "notRequired"]),
            ("ConfirmIntent", ["allow": true]),
            ("ConfirmIntent", ["allow": false]),  // confirm's failure code ends the run: no handle
            // The host still checks and normalizes what the client gave.
            ("TypesIntent", ["count": "7", "length": "25m", "price": "12,50 €", "color": "Grün", "tags": "one", "flag": "yes"]),
        ]
        for (intent, parameters) in requests {
            let one = try fast.client.send(intent, parameters: parameters) { _ in nil }
            let phased = try slow.client.send(intent, parameters: parameters) { _ in nil }
            #expect(Self.visible(one) == Self.visible(phased), "\(intent) \(parameters)")
            #expect(fast.taken() == ["\(intent) run"], "\(intent) \(parameters)")
            #expect(slow.taken() == ["\(intent) resolve", "\(intent) confirm"] + (parameters["allow"] == false ? [] : ["\(intent) handle"]))
        }
        let typed = try fast.client.send("TypesIntent", parameters: ["count": "7", "price": "12,50 €"]) { _ in nil }
        let echo = try JSON.parse(try #require(typed.body["response"]?["echo"]?.stringValue))
        #expect(echo == ["count": 7, "price": ["amount": 12.5, "currency": "EUR"]])
        // A value that does not fit is refused before the plugin is asked anything.
        #expect(throws: ClientError.self) { _ = try fast.client.send("TypesIntent", parameters: ["count": 11]) { _ in nil } }
        #expect(fast.taken() == ["TypesIntent run"], "only the good request reached the plugin")
    }

    @Test("a parameter that needs the user: the question still goes to the client in the middle, then one more trip")
    func questionInTheMiddle() throws {
        let fast = try Side(phased: false)
        defer { fast.host.stop() }
        let slow = try Side(phased: true)
        defer { slow.host.stop() }
        let scripts: [(JSON, [JSON], [String])] = [
            (["kind": "needsValue"], ["filled"], ["value"]),
            (["kind": "confirmationRequired", "target": "x"], [false, "y", true], ["confirmation", "value", "confirmation"]),
            (["kind": "disambiguation", "target": "Opt"], ["o2"], ["disambiguation"]),
            (["target": "z"], ["success"], ["value"]),  // a required parameter without a value
        ]
        for (parameters, answers, kinds) in scripts {
            let talkFast = Conversation(answers), talkSlow = Conversation(answers)
            let one = try fast.client.send("ResolveIntent", parameters: parameters, onEvent: talkFast.handle)
            let phased = try slow.client.send("ResolveIntent", parameters: parameters, onEvent: talkSlow.handle)
            #expect(talkFast.prompts.map(\.kind) == kinds, "\(parameters)")
            #expect(talkFast.prompts.map(\.raw) == talkSlow.prompts.map(\.raw), "\(parameters)")
            #expect(Self.visible(one) == Self.visible(phased), "\(parameters)")
            // One run per question asked, and one to finish: the question stops the run before confirm.
            #expect(fast.taken() == Array(repeating: "ResolveIntent run", count: kinds.count + 1), "\(parameters)")
            #expect(slow.taken().suffix(2) == ["ResolveIntent confirm", "ResolveIntent handle"])
        }
    }

    @Test("a plugin that announces no phases gets the phased flow (the keyed request's fallback: test_e2e_legacy_one_trip.py)")
    func phasedFallback() throws {
        let old = try Side(phased: true)
        defer { old.host.stop() }
        let reply = try old.client.send("ResolveIntent", parameters: ["kind": "success", "target": "x"]) { _ in nil }
        #expect(reply.body["dialog"] == "Done with x.")
        #expect(old.taken() == ["ResolveIntent resolve", "ResolveIntent confirm", "ResolveIntent handle"])

    }
}
