import Foundation
import Testing
import IntentBus
@testable import PluginHost

/// Unit tests of the pure checks behind docs/results.md, docs/schemas.md and the
/// authentication policies: no sockets, no processes.
@Suite("Result, schema and authentication-policy checks")
struct ResultCheckTests {
    @Test("opens_intent: a name and optional parameters; empty, long, host and mistyped ones are refused")
    func openedIntents() throws {
        #expect(try ResultCheck.opened(["intent": "OpenProjectIntent", "parameters": ["project": "p1"]]).get()
                == ResultCheck.Opened(intent: "OpenProjectIntent", parameters: ["project": "p1"]))
        #expect(try ResultCheck.opened(["intent": "A"]).get().parameters == .object([:]))
        let problems: [(JSON, String)] = [
            ("OpenProjectIntent", "opens_intent must be an object"),
            (["intent": ""], "opens_intent.intent must be a non-empty string"),
            (["intent": 3], "opens_intent.intent must be a non-empty string"),
            (["intent": .string(String(repeating: "x", count: 256))], "is 256 bytes; an intent name is at most 255"),
            (["intent": "ib.choices.reset"], "names the host intent ib.choices.reset"),
            (["intent": "A", "parameters": [1]], "opens_intent.parameters must be an object, got an array"),
        ]
        for (value, expected) in problems {
            guard case .failure(let problem) = ResultCheck.opened(value) else {
                Issue.record("\(value.canonicalString) was accepted")
                continue
            }
            #expect(problem.message.contains(expected), "\(problem.message)")
        }
    }

    @Test("views: shape and size limits")
    func views() {
        let action: JSON = ["title": "Open", "intent": "OpenProjectIntent", "parameters": ["project": "p1"]]
        #expect(ResultCheck.viewProblem(["title": "T", "rows": [["title": "Row", "subtitle": "s", "actions": [action]]]]) == nil)
        #expect(ResultCheck.viewProblem(["rows": []]) == nil)
        let long = JSON.string(String(repeating: "é", count: 201))
        let cases: [(JSON, String)] = [
            ([1], "view must be an object"),
            (["title": "T"], "view.rows must be an array"),
            (["rows": .array(Array(repeating: ["title": "r"], count: 21))], "view.rows has 21 rows"),
            (["rows": [["subtitle": "x"]]], "view.rows[0].title must be a string, got null"),
            (["rows": [["title": ""]]], "view.rows[0].title must not be empty"),
            (["rows": [["title": long]]], "view.rows[0].title is 201 characters"),
            (["title": 5, "rows": []], "view.title must be a string"),
            (["rows": [["title": "r", "actions": .array(Array(repeating: action, count: 5))]]], "offers at most 4"),
            (["rows": .array(Array(repeating: ["title": "r", "actions": .array(Array(repeating: action, count: 4))], count: 11))],
             "view has more than 40 actions"),
            (["rows": [["title": "r", "actions": [["title": "Go", "intent": "ib.status"]]]]], "names the host intent ib.status"),
            (["rows": [["title": "r", "actions": [["intent": "A"]]]]], "actions[0].title must be a string"),
            (["rows": [["title": "r", "actions": [["title": "Go", "intent": "A", "parameters": "p"]]]]],
             "actions[0].parameters must be an object"),
        ]
        for (view, expected) in cases {
            let problem = ResultCheck.viewProblem(view)
            #expect(problem?.message.contains(expected) == true, "\(view.canonicalString.prefix(80)): \(problem?.message ?? "accepted")")
        }
    }

    @Test("system.search and messages.sendMessage: matching and mismatching declarations")
    func schemas() {
        func intent(_ params: [(String, String, Bool, JSON?)], lists: Set<String> = []) -> NewStyleIntent {
            NewStyleIntent(identifier: "S", title: "S", authentication: .alwaysAllowed, migratedFrom: nil,
                       parameters: params.map { name, type, optional, def in
                           var p = NewStyleParameter(name: name, title: name, type: .init(rawValue: type)!, optional: optional,
                                                     defaultValue: def)
                           p.multiple = lists.contains(name)
                           return p
                       })
        }
        let search = AssistantSchema.known["system.search"]!
        #expect(search.problems(intent([("criteria", "string", false, nil), ("limit", "integer", true, nil)])).isEmpty)
        #expect(search.problems(intent([("criteria", "string", false, nil), ("page", "integer", false, 1)])).isEmpty)
        #expect(search.problems(intent([])) == ["S implements system.search but has no parameter criteria (string)"])
        #expect(search.problems(intent([("criteria", "enum", false, nil)]))
                == ["S implements system.search, whose criteria is string, but declares it as enum"])
        #expect(search.problems(intent([("criteria", "string", false, nil), ("scope", "string", false, nil)])).first?
                .contains("requires scope, which system.search does not define") == true)
        let send = AssistantSchema.known["messages.sendMessage"]!
        #expect(send.problems(intent([("recipients", "entity", false, nil), ("content", "string", false, nil)],
                                     lists: ["recipients"])).isEmpty)
        #expect(send.problems(intent([("recipients", "string", false, nil), ("content", "string", false, nil)]))
                == ["S implements messages.sendMessage, whose recipients is a list, but declares it as one value (\"multiple\": true; Swift [String], Python [str])"])
        #expect(send.problems(intent([("content", "string", false, nil)])).count == 1)
    }

    @Test("HELLO: a schema must be known, routed with style new, implemented once")
    func schemaHello() {
        func hello(_ intents: [JSON], routes: [String]) -> JSON {
            ["intents": .array(routes.map { ["name": .string($0), "style": "new"] }),
             "metadata": ["new_style": ["version": 1, "intents": .array(intents)]]]
        }
        let good: JSON = ["identifier": "Find", "title": "Find", "schema": "system.search",
                          "parameters": [["name": "criteria", "title": "C", "type": "string"]]]
        let (catalog, problems) = NewStyleCatalog.parse(hello: hello([good], routes: ["Find", "system.search"]))
        #expect(problems.isEmpty)
        #expect(catalog.lookup("system.search")?.0.identifier == "Find")
        #expect(catalog.lookup("system.search")?.migratedFrom == nil)
        #expect(NewStyleCatalog.parse(hello: hello([good], routes: ["Find"])).1.contains {
            $0.contains("does not route system.search to it") })
        var unknown = good.objectValue!
        unknown["schema"] = "system.teleport"
        #expect(NewStyleCatalog.parse(hello: hello([.object(unknown)], routes: ["Find"])).1.contains {
            $0.contains("unknown assistant schema \"system.teleport\"") })
        var twice = good.objectValue!
        twice["identifier"] = "Find2"
        #expect(NewStyleCatalog.parse(hello: hello([good, .object(twice)], routes: ["Find", "Find2", "system.search"])).1
            .contains { $0.contains("both Find and Find2 implement system.search") })
    }

    @Test("authentication policies: credential on ipc, restricted right with CURVE, local-device only on ipc")
    func policies() throws {
        var host = try ManifestLoader.load(text: "plugins: []\n", path: "/tmp/ib-policy/plugins.yaml").host
        host.clientCredential = "s3cret"
        var admin = ClientGrant(name: "admin", publicKey: "")
        admin.restricted = true
        host.clients = [admin, ClientGrant(name: "kiosk", publicKey: "")]
        let ipc = AuthenticationPolicy.Access(host: host, clientKeysRequired: false)
        let required = AuthenticationPolicy.requiresAuthentication
        let local = AuthenticationPolicy.requiresLocalDeviceAuthentication
        #expect(AuthenticationPolicy.alwaysAllowed.problem(intent: "I", options: [:], access: ipc) == nil)
        #expect(required.problem(intent: "I", options: [:], access: ipc)?.code == .authenticationRequired)
        #expect(required.problem(intent: "I", options: ["credential": "nope"], access: ipc)?.message.contains("wrong") == true)
        #expect(required.problem(intent: "I", options: ["credential": "s3cret"], access: ipc) == nil)
        #expect(local.problem(intent: "I", options: ["credential": "s3cret"], access: ipc) == nil)
        // A header claiming "authenticated" means nothing without CURVE.
        #expect(required.problem(intent: "I", options: ["authenticated": "admin"], access: ipc)?.code == .authenticationRequired)

        host.frontend = "tcp://127.0.0.1:5555"
        let curve = AuthenticationPolicy.Access(host: host, clientKeysRequired: true)
        #expect(required.problem(intent: "I", options: ["authenticated": "admin"], access: curve) == nil)
        #expect(required.problem(intent: "I", options: ["authenticated": "kiosk", "credential": "s3cret"], access: curve)?.code
                == .forbidden)
        #expect(local.problem(intent: "I", options: ["authenticated": "admin"], access: curve)?.message
                .contains("requires authentication on the local device") == true)
    }
}
