import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusTestSupport
@testable import PluginHost
import IntentBusDefinitions

/// The rig's intent `I` as a new-style intent: one required integer in 1…10, one optional.
private struct LaneUnitIntent: AppIntent {
    static let title: LocalizedStringResource = "Lane unit"
    static let persistentIdentifier = "I"
    @Parameter(title: "N", inclusiveRange: (1, 10)) var n: Int
    @Parameter(title: "Note") var note: String?
    func perform() async throws -> some IntentResult { .result() }
}

/// The relay lane with new-style requests (RelayLane+Checked.swift, NewStyleLaneCheck):
/// `RelayLaneUnitTests`' rig, with the new-style extension installed and the plugin's
/// HELLO declaring `I` with style new; recorded effects for what the core sends.
@Suite("Relay lane, new-style requests, unit", .serialized)
struct RelayLaneNewStyleUnitTests {
    private func rig() throws -> RelayLaneUnitTests.Rig {
        let sdk = try IntentPlugin(environment: ["INTENTBUS_DESCRIBE": "1"])
        sdk.register(LaneUnitIntent.self)
        let rig = try RelayLaneUnitTests.Rig(coreExtensions: { core in
            [NewStyleExtension(view: core, definitions: DefinitionBook(DefinitionCatalog(), logger: core.logger))]
        }, hello: { token in
            ["protocol": 1, "plugin": "alpha", "token": .string(token), "pid": 1,
             "intents": [["name": "I", "style": "new"]], "metadata": ["new_style": sdk.metadata]]
        })
        #expect(rig.h.core.slots[0].style(for: "I") == .new, "\(rig.h.logLines.text)")
        return rig
    }

    @Test("a body the flow would send on unchanged takes the lane: header {\"style\":\"new\"}, the body as sent; its REPLY goes back")
    func takesValid() throws {
        let rig = try rig()
        #expect(try rig.fromClient(.request, "r1", body: ["n": 3, "note": "x"]))
        let delivered = try rig.next(rig.plugin)
        #expect(delivered.header.data == Data(#"{"style":"new"}"#.utf8))
        #expect(try delivered.bodyJSON() == ["n": 3, "note": "x"])
        #expect(rig.lane.count == 1 && rig.h.core.book.count == 0)
        #expect(try rig.fromPlugin(.reply, delivered.requestId))
        let reply = try rig.next(rig.client)
        #expect(reply.kind == .reply && reply.requestId == "r1")
        #expect(rig.lane.count == 0 && rig.h.take().isEmpty)
    }

    @Test("a body the flow would answer, change or ask about is declined: the general path answers it")
    func declines() throws {
        let rig = try rig()
        let bodies: [JSON] = [["n": 11], ["n": "3"], ["n": 3, "x": 1], ["note": "x"], ["n": 3, "note": .null], [:], .array([]), "n"]
        for (i, body) in bodies.enumerated() {
            #expect(try rig.fromClient(.request, "d\(i)", body: body) == false, "\(body)")
            #expect(rig.lane.count == 0)
        }
        // Each got the general path's answer: an error, a PROMPT for n, or its REQUEST at the plugin.
        let sent = rig.h.take().map(\.msg.kind)
        #expect(sent == [.error, .request, .error, .prompt, .request, .prompt, .error, .error], "\(sent)")
        // The two REQUESTs the flow wrote again: "3" read as 3, the null dropped.
        #expect(rig.lane.count == 0)
    }

    @Test("the plugin's PROMPT promotes the request with its flow delivered: the client's answer is checked")
    func promptPromotes() throws {
        let rig = try rig()
        #expect(try rig.fromClient(.request, "r1", body: ["n": 3]))
        let wireId = try rig.next(rig.plugin).requestId
        let question: JSON = ["kind": "value", "parameter": "n", "dialog": "How many?"]
        #expect(try rig.fromPlugin(.prompt, wireId, header: nil, body: question) == false)
        #expect(rig.lane.count == 0 && rig.h.core.book.count == 1)
        #expect(rig.h.core.book.all.first?.flow is NewStyleFlow)
        let prompt = try #require(rig.h.take().last?.msg)
        #expect(prompt.kind == .prompt && prompt.requestId == "r1")
        // Out of the declared range: the host refuses it, cancels the plugin's perform().
        #expect(try rig.fromClient(.answer, "r1", body: ["value": 50]) == false)
        let after = rig.h.take().map { "\($0.to) \($0.msg.kind)" }
        #expect(after.contains("c1 error") && after.contains("alpha cancel"), "\(after)")
        #expect(rig.h.core.book.count == 0)
    }
}
