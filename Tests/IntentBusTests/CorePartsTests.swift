import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

/// The core's small parts as values, without a core: what a result that leads on becomes
/// (`LeadOn`), the host's own queries (`HostQueries`), and the remembered-choice keys and
/// rate answer (`ChoiceDefaults`). The core's side of each is covered through the core
/// (NewStyleForwardingTests, EntityListsTests, ChoicePolicyTests, the choice suites).
@Suite("Core parts as values")
struct CorePartsTests {
    private func leadOn(openedBy: [JSON] = [], options: JSON = ["client": "kitchen", "remember": true, "plugin": "p"],
                        claims: Bool = false) -> LeadOn {
        LeadOn(intent: "Order", pluginId: "p", options: options, openedBy: openedBy) { _ in claims }
    }

    @Test("a result leads on only with opens_intent or a view; a bad one is the plugin's fault")
    func leadOnOutcomes() {
        let success: JSON = ["status": "success"]
        if case .ordinary = leadOn().decide(header: success, body: ["dialog": "Done."]) {} else { Issue.record("ordinary") }
        if case .ordinary = leadOn().decide(header: success, body: "not an object") {} else { Issue.record("not an object") }
        let unusable: JSON = ["opens_intent": ["intent": ""]]
        let opensPay: JSON = ["opens_intent": ["intent": "Pay"]]
        let failed: JSON = ["status": "failure"]
        let legacyCode: JSON = ["code": "success"]
        let cases: [(header: JSON, body: JSON, expected: String)] = [
            (success, unusable, "an unusable opens_intent"),
            (failed, opensPay, "only a successful result may open"),
            (legacyCode, opensPay, "continueInApp"),
        ]
        for c in cases {
            guard case .fault(let error) = leadOn().decide(header: c.header, body: c.body) else {
                Issue.record("\(c.body) should be the plugin's fault")
                continue
            }
            let message: String = error.message
            #expect(error.code == ErrorCode.pluginError, "\(message)")
            #expect(message.contains(c.expected), "\(message)")
            #expect(error.details["plugin"] == "p")
        }
    }

    @Test("an opened intent: the RESULT names it, the request keeps the client's header (not remember), the chain grows")
    func leadOnOpens() {
        let before: [JSON] = [["intent": "Browse", "plugin": "q"]]
        let outcome = leadOn(openedBy: before).decide(header: ["status": "success"],
                                                      body: ["opens_intent": ["intent": "Pay", "parameters": ["sum": 3]]])
        guard case .opens(let intent, let resultHeader, let request, let chain) = outcome else {
            Issue.record("\(outcome) should open Pay")
            return
        }
        #expect(intent == "Pay")
        #expect(resultHeader == ["status": "success", "opens": "Pay", "opened_by": .array(before)])
        #expect(request.header == ["client": "kitchen"], "another plugin's intent: no plugin, never remember")
        #expect(request.parameters == ["sum": 3])
        #expect(chain == before + [["intent": "Order", "plugin": "p"]])
        // The same plugin claims the opened intent: the request stays with it.
        if case .opens(_, _, let same, _) = leadOn(claims: true).decide(header: [:], body: ["opens_intent": ["intent": "Pay"]]) {
            #expect(same.header == ["client": "kitchen", "plugin": "p"])
        } else { Issue.record("should open") }
        // At the longest chain, nothing more is opened.
        let long: [JSON] = (0..<(ResultCheck.maximumChain - 1)).map { i -> JSON in ["intent": .string("I\(i)"), "plugin": "p"] }
        guard case .fault(let error) = leadOn(openedBy: long).decide(header: [:], body: ["opens_intent": ["intent": "Pay"]]) else {
            Issue.record("a chain of \(ResultCheck.maximumChain) should end")
            return
        }
        #expect(error.message.contains("at most \(ResultCheck.maximumChain) intents"))
    }

    @Test("host queries: at most 256 open; an answer is read once, a PROMPT is cancelled, PROGRESS changes nothing")
    func hostQueries() throws {
        var queries = HostQueries()
        for id in 0..<UInt64(HostQueries.maximum) {
            let wireId = queries.open(id: id)
            #expect(wireId == "h-\(id)")
        }
        let full = queries.open(id: 999)
        #expect(full == nil, "full")
        queries.forget(id: 5)
        #expect(queries["h-5"] == nil && queries.count == HostQueries.maximum - 1)
        let reopened = queries.open(id: 999)
        #expect(reopened == "h-999")
        func answer(_ kind: MessageKind, _ id: String, _ body: JSON?) -> WireMessage {
            WireMessage(kind: kind, requestId: id, intent: "I", header: nil, body: body)
        }
        let progress = queries.answered(answer(.progress, "h-1", ["step": 1]), pluginId: "p")
        #expect(progress == nil)
        let replied = queries.answered(answer(.reply, "h-1", ["items": []]), pluginId: "p")
        let reply = try #require(replied)
        let items: JSON = ["items": []]
        #expect(reply.id == 1 && !reply.cancel && (try? reply.result.get()) == items)
        let again = queries.answered(answer(.reply, "h-1", [:]), pluginId: "p")
        #expect(again == nil, "answered once")
        let failed = queries.answered(answer(.error, "h-2", ["code": "failed", "message": "no list"]), pluginId: "p")
        let error = try #require(failed)
        #expect(error.id == 2 && !error.cancel)
        if case .failure(let e) = error.result {
            #expect(e.code == ErrorCode.pluginError && e.message == "no list")
        } else { Issue.record("an error") }
        let asked = queries.answered(answer(.prompt, "h-3", ["kind": "value"]), pluginId: "p")
        let prompt = try #require(asked)
        #expect(prompt.id == 3 && prompt.cancel)
        if case .failure(let e) = prompt.result { #expect(e.message.contains("asked a question")) } else { Issue.record("a failure") }
        #expect(queries["h-3"] == nil && queries["h-4"] == 4)
    }

    @Test("remembered-choice keys: the context's key when the manifest names one, else the header's client")
    func choiceKeys() {
        let options: JSON = ["client": "kitchen", "context": ["satellite": "s-1"]]
        #expect(ChoiceDefaults.client(options, context: nil) == "kitchen")
        #expect(ChoiceDefaults.client(options, context: "satellite") == "satellite=s-1")
        #expect(ChoiceDefaults.client(["client": "kitchen"], context: "satellite") == "kitchen")
        #expect(ChoiceDefaults.client([:], context: nil) == nil)
        #expect(ChoiceDefaults.contextKey("room", 3) == "room=3")
        var limits = HostLimits()
        limits.choiceWritesPerSecond = 4
        let busy = ChoiceDefaults.writeRateError(limits)
        #expect(busy.code == ErrorCode.busy && busy.details["retry_after_ms"] == 250)
    }
}
