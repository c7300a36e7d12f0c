import Foundation
import Testing
import IntentBus
import PluginHost
import IntentBusTestSupport

/// End-to-end: new-style list parameters (`[TestItem]`, `[String]?`, `[Int]` with a range;
/// docs/protocol.md §9.1) through the real host and the real new-style test plugin
/// (BasketIntent, with NEWSTYLE_LISTS=1).
@Suite("New-style list parameters", .serialized)
struct NewStyleListTests {
    static let intents = NewStyleTests.allIntents + ["BasketIntent", "LevelIntent", "PauseIntent"]

    @Test("an entity list is resolved item by item, each ambiguous item asked about in order; every item is checked")
    func entityList() throws {
        let host = try TestHost(TestManifest(.newStyle("ns", intents: Self.intents, env: ["NEWSTYLE_LISTS": "1"])))
        defer { host.stop() }
        let client = try host.client()

        // The metadata says multiple; the host hands the plugin lists.
        var talk = Conversation(["apricot-2", "apple-1"])
        let reply = try client.send("BasketIntent", parameters: ["items": ["Ap", "banana-3", "Ap"], "notes": "ripe"],
                                    onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["disambiguation", "disambiguation"])
        #expect(talk.prompts.map { $0.raw["item"] } == [0, 2])
        #expect(talk.prompts.map { $0.raw["items"] } == [3, 3])
        #expect(talk.prompts.first?.options.compactMap { $0["id"]?.stringValue } == ["apple-1", "apricot-2"])
        #expect(reply.body["dialog"] == "Basket: Apricot, Banana, Apple.")
        #expect(reply.body["value"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["apricot-2", "banana-3", "apple-1"])
        // A single value for a list parameter is a list of one; the default list applies.
        #expect(reply.body["snippet"]?["notes"] == ["ripe"])
        #expect(reply.body["snippet"]?["ratings"] == [3])

        // A missing required list is asked for, saying it takes a list.
        talk = Conversation([["banana-3", "apple-1"]])
        let asked = try client.send("BasketIntent", onEvent: talk.handle)
        #expect(talk.prompts.first?.parameter == "items")
        #expect(talk.prompts.first?.raw["multiple"] == true)
        #expect(asked.body["dialog"] == "Basket: Banana, Apple.")

        // Every item is checked, and the problem names the item.
        let outOfRange = busError { _ = try client.send("BasketIntent", parameters: ["items": ["banana-3"], "ratings": [2, 9]]) { _ in nil } }
        #expect(outOfRange?.code == .invalidParameters)
        #expect(outOfRange?.details["parameter"] == "ratings")
        #expect(outOfRange?.message.contains("item 2: must be within 1…5, got 9") == true)
        let notText = busError { _ = try client.send("BasketIntent", parameters: ["items": ["banana-3", ["x": 1]]]) { _ in nil } }
        #expect(notText?.details["parameter"] == "items")
        #expect(notText?.message.contains("item 2:") == true)
        // A list where one value is declared is refused.
        let many = busError { _ = try client.send("PickItemIntent", parameters: ["item": ["banana-3", "apple-1"]]) { _ in nil } }
        #expect(many?.code == .invalidParameters)
        #expect(many?.message.contains("takes one value, got a list") == true)
    }

    @Test("the Swift SDK declares a list as its items' type with multiple: true")
    func metadata() throws {
        let result = runCommand(Products.path("plugin-newstyletest"), [], environment: ["INTENTBUS_DESCRIBE": "1", "NEWSTYLE_LISTS": "1"])
        #expect(result.status == 0)
        let described = try JSON.parse(Data(result.stdout.utf8))
        let basket = try #require(described["metadata"]?["new_style"]?["intents"]?.arrayValue?.first { $0["identifier"] == "BasketIntent" })
        let params = basket["parameters"]?.arrayValue ?? []
        #expect(params.map { $0["name"] } == ["items", "notes", "ratings"])
        #expect(params.map { $0["type"] } == ["entity", "string", "integer"])
        #expect(params.map { $0["multiple"] } == [true, true, true])
        #expect(params.map { $0["optional"] } == [false, true, false])
        #expect(params[2]["min"] == 1 && params[2]["max"] == 5 && params[2]["default"] == [3])
    }

    @Test("inRange on an optional: absent is fine, a given value is checked; a list of optional numbers too")
    func optionalRanges() throws {
        let host = try TestHost(TestManifest(.newStyle("ns", intents: Self.intents, env: ["NEWSTYLE_LISTS": "1"])))
        defer { host.stop() }
        let client = try host.client()
        let none = try client.send("PauseIntent") { _ in nil }
        #expect(none.body["dialog"] == "No break.")
        let some = try client.send("PauseIntent", parameters: ["breakMinutes": 10, "weights": [0.5, 2]]) { _ in nil }
        #expect(some.body["dialog"] == "Break of 10 minutes.")
        #expect(some.body["snippet"]?["weights"] == [0.5, 2.0])
        let tooLong = busError { _ = try client.send("PauseIntent", parameters: ["breakMinutes": 31]) { _ in nil } }
        #expect(tooLong?.message.contains("must be within 1…30, got 31") == true)
        let heavy = busError { _ = try client.send("PauseIntent", parameters: ["weights": [1, 2.5]]) { _ in nil } }
        #expect(heavy?.message.contains("item 2: must be within 0.5…2") == true, "\(heavy?.message ?? "")")
        #expect(heavy?.message.hasSuffix("got 2.5") == true)
    }
}
