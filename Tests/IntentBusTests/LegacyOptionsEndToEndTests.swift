import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Dynamic options (phase `options`, docs/protocol.md §8.5) from a plugin that answers a
/// hostile list, through the real host and the real LegacyTest plugin.
@Suite("Legacy end to end: dynamic options", .serialized)
struct LegacyOptionsEndToEndTests {
    @Test("a hostile options list is cut to the well-formed, unique ones among the first 100; a picked id becomes its value")
    func hostileOptions() throws {
        let host = try TestHost(TestManifest(.legacy()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["o7"])
        let reply = try client.send("OptionsIntent", onEvent: talk.handle)
        let ids = talk.prompts.first?.options.compactMap { $0["id"]?.stringValue } ?? []
        // Of the first 100 given (4 bad ones, o1…o96): "a" once (its double dropped), no empty id, no 2000-byte title.
        #expect(ids == ["a"] + (1...96).map { "o\($0)" })
        #expect(talk.prompts.first?.dialog == "Which one?")
        #expect(reply.body["dialog"] == "Picked value-7.")
        // An answer that is no option's id is a value all the same.
        let said = Conversation(["something else"])
        #expect(try client.send("OptionsIntent", onEvent: said.handle).body["dialog"] == "Picked something else.")
    }
}
