import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

// Shared by the handler suites whose SDK path parses the parameters itself in the receiving
// turn (SyncHandlerEndToEndTests, ImmediateHandlerEndToEndTests).

/// Sends TestIntent three bodies that are not a JSON object (an array, broken JSON, bytes)
/// on a raw connection: each gets its own `invalid_parameters` ERROR, and the plugin then
/// serves an ordinary request.
func expectNonObjectBodiesRefused(_ host: TestHost) throws {
    let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
    for (id, body) in [("array", "[1,2]"), ("broken", "{\"a\":"), ("bytes", "Hello world")] {
        try dealer.send([Frame("IB1"), Frame("REQUEST"), Frame(id), Frame("TestIntent"), Frame(), Frame(body)])
        let msg = try WireMessage.decode(try #require(try dealer.receive(), "no answer to \(id)")[...])
        #expect(msg.requestId == id)
        #expect(msg.kind == .error, "\(id): \(msg.kind)")
        #expect(try msg.bodyJSON()["code"] == "invalid_parameters", "\(id): \(msg.body.string)")
    }
    #expect(try host.client().send("TestIntent", parameters: ["ok": true]) { _ in nil }.succeeded)
}
