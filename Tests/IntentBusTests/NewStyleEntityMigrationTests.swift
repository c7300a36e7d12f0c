import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: entity queries over the bus, metadata checks at HELLO and in
/// `intentbus validate`, migration from legacy names, and mixed plugins.
@Suite("New-style entities, metadata and migration", .serialized)
struct NewStyleEntityMigrationTests {
    @Test("ib.entities forwards suggestions, id lookups and text matches to the plugin that declares the entity")
    func entityQueries() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")), waitReady: ["ns"])
        defer { host.stop() }
        let client = try host.client()
        func ids(_ body: JSON) -> [String] { body["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }

        let suggested = try client.control("ib.entities", ["entity": "TestItem", "query": "suggested"])
        #expect(ids(suggested) == ["apple-1", "apricot-2"])
        #expect(suggested["results"]?.arrayValue?.first?["title"] == "Apple")
        #expect(suggested["results"]?.arrayValue?.first?["subtitle"] == "fruit")

        // Unknown ids are skipped, not errors.
        let byId = try client.control("ib.entities", ["entity": "TestItem", "query": "ids", "ids": ["banana-3", "nope"]])
        #expect(ids(byId) == ["banana-3"])

        let matching = try client.control("ib.entities", ["entity": "TestItem", "query": "matching", "text": "ap"])
        #expect(ids(matching) == ["apple-1", "apricot-2"])

        // This query can't list everything; an unknown entity type is named.
        let all = #expect(throws: ClientError.self) { _ = try client.control("ib.entities", ["entity": "TestItem", "query": "all"]) }
        guard case .bus(let allError)? = all else { Issue.record("expected a bus error"); return }
        #expect(allError.code == .invalidParameters)
        let unknown = #expect(throws: ClientError.self) { _ = try client.control("ib.entities", ["entity": "Nope"]) }
        guard case .bus(let unknownError)? = unknown else { Issue.record("expected a bus error"); return }
        #expect(unknownError.message.contains("Nope"))
        #expect(unknownError.details["known_entities"] == ["TestItem"])
    }

    @Test("an entity parameter can be given by id, by {\"text\"}, or by text that needs disambiguation")
    func entityParameter() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")))
        defer { host.stop() }
        let client = try host.client()
        let byId = try client.send("PickItemIntent", parameters: ["item": "banana-3"]) { _ in nil }
        #expect(byId.body["value"]?["id"] == "banana-3")
        #expect(byId.body["value"]?["type"] == "TestItem")
        let byText = try client.send("PickItemIntent", parameters: ["item": ["text": "bana"]]) { _ in nil }
        #expect(byText.body["value"]?["id"] == "banana-3")

        var prompts: [Prompt] = []
        let ambiguous = try client.send("PickItemIntent", parameters: ["item": "Ap"]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": "apricot-2"]
        }
        #expect(prompts.first?.kind == "disambiguation")
        #expect(prompts.first?.parameter == "item")
        #expect(prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Apple", "Apricot"])
        #expect(ambiguous.body["dialog"] == "You picked Apricot.")

        // A text that matches nothing asks again, as SiriKit's needsValue would, with the
        // query's suggestions; an answer that matches is taken, by id or by text.
        var again: [Prompt] = []
        let reasked = try client.send("PickItemIntent", parameters: ["item": "cherry"]) { event in
            guard case .prompt(let p) = event else { return nil }
            again.append(p)
            return ["value": again.count == 1 ? "chai" : "apricot-2"]
        }
        #expect(again.map(\.kind) == ["value", "value"])
        #expect(again.first?.parameter == "item")
        #expect(again.first?.raw["reason"] == "no_match")
        #expect(again.first?.dialog == "No Item matches “cherry”. Which Item do you mean?")
        #expect(again.last?.dialog == "No Item matches “chai”. Which Item do you mean?")
        #expect(again.first?.options.compactMap { $0["id"]?.stringValue } == ["apple-1", "apricot-2"])
        #expect(reasked.body["dialog"] == "You picked Apricot.")
        let byAnswerText = try client.send("PickItemIntent", parameters: ["item": "cherry"]) { event in
            guard case .prompt = event else { return nil }
            return ["value": "ban"]
        }
        #expect(byAnswerText.body["dialog"] == "You picked Banana.")
        // Still nothing after ten answers: the request ends with the parameter named.
        let none = busError { _ = try client.send("PickItemIntent", parameters: ["item": "cherry"]) { event in
            guard case .prompt = event else { return nil }
            return ["value": "cherry"]
        } }
        #expect(none?.code == .invalidParameters)
        #expect(none?.details["parameter"] == "item")
    }

    @Test("invalid metadata: the host rejects the plugin, and the log and `intentbus plugins` say why")
    func metadataRejected() throws {
        let host = try TestHost(TestManifest(
            .newStyle("broken", intents: ["BrokenRangeIntent"], env: ["NEWSTYLE_BROKEN": "1"]),
            .newStyle("noquery", intents: ["PickItemIntent"], env: ["NEWSTYLE_BROKEN": "noquery"])))
        defer { host.stop() }
        let broken = try host.waitForPlugin("broken", state: "failed")
        let reason = broken["reason"]?.stringValue ?? ""
        #expect(reason.contains("BrokenRangeIntent.minutes: default 500 is outside its range 5…180"))
        #expect(reason.contains("BrokenRangeIntent.untitled: parameter has no title"))
        #expect(reason.contains("two intents with the same identifier DuplicateIntent"))
        #expect(host.logEventually(contains: "rejected HELLO from plugin broken: invalid new-style metadata"))
        let noquery = try host.waitForPlugin("noquery", state: "failed")
        #expect(noquery["reason"]?.stringValue?.contains("entity type TestItem has no query") == true, "\(noquery.canonicalString)")

        let listing = runCommand(Products.path("intentbus"), ["plugins", "--config", host.manifestPath])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("! broken: handshake rejected: invalid new-style metadata"))
        #expect(listing.stdout.contains("default 500 is outside its range 5…180"))

        // Requests for its intents get a clear plugin_unavailable.
        let e = busError { _ = try host.client().send("BrokenRangeIntent") { _ in nil } }
        #expect(e?.code == .pluginUnavailable)
        #expect(e?.message.contains("outside its range") == true)
    }

    @Test("`intentbus validate` prints the errors of a broken plugin and exits non-zero; a valid one passes")
    func validateCommand() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", TestManifest(
            .newStyle("broken", intents: ["BrokenRangeIntent"], env: ["NEWSTYLE_BROKEN": "1"]), .newStyle("good")).yaml)
        let bad = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "broken"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("error: broken: BrokenRangeIntent.minutes: default 500 is outside its range 5…180"))
        #expect(bad.stderr.contains("error: broken: BrokenRangeIntent.untitled: parameter has no title"))
        #expect(bad.stderr.contains("error: broken: two intents with the same identifier DuplicateIntent"))
        #expect(bad.stderr.contains("3 errors"))

        let good = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "good"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("good: valid"))
        #expect(good.stdout.contains("minutes: integer (default 25, range 5…180)"))
        #expect(good.stdout.contains("GreetAppIntent  \"Greet\"  (migrates LegacyGreetIntent)"))

        let exec = runCommand(Products.path("intentbus"), ["validate", "--exec", Products.path("plugin-newstyletest"), "--json"])
        #expect(exec.status == 0)
        let json = try JSON.parse(exec.stdout)
        #expect(json["metadata"]?["new_style"]?["intents"]?.arrayValue?.count == 6)

        let notSDK = runCommand(Products.path("intentbus"), ["validate", "--exec", "/bin/true"])
        #expect(notSDK.status == 1)
        #expect(notSDK.stderr.contains("did not print its declarations"))
    }

    @Test("a migrated intent is reached by its legacy name; a parameter that doesn't map is reported, not dropped")
    func migration() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")))
        defer { host.stop() }
        let client = try host.client()
        let reply = try client.send("LegacyGreetIntent", parameters: ["name": "Ada", "times": 2, "shout": true]) { _ in nil }
        #expect(reply.status == "success")
        #expect(reply.body["snippet"]?["style"] == "new")
        #expect(reply.body["dialog"] == "Hello Ada! Hello Ada!")
        #expect(reply.header["migrated_from"] == "LegacyGreetIntent")
        #expect(reply.header["handled_by"] == "GreetAppIntent")
        let unmapped = reply.header["unmapped_parameters"]?.arrayValue ?? []
        #expect(unmapped.count == 1)
        #expect(unmapped.first?["name"] == "shout")
        #expect(unmapped.first?["value"] == true)
        #expect(unmapped.first?["reason"]?.stringValue?.contains("has no parameter \"shout\"") == true)
        #expect(host.logEventually(contains: "parameters not mapped: shout"))

        // A legacy value of the wrong type doesn't map either: reported, and the parameter
        // falls back to its default.
        let mistyped = try client.send("LegacyGreetIntent", parameters: ["name": "Bo", "times": "many"]) { _ in nil }
        #expect(mistyped.body["snippet"]?["times"] == 1)
        #expect(mistyped.header["unmapped_parameters"]?.arrayValue?.first?["name"] == "times")
        #expect(mistyped.header["unmapped_parameters"]?.arrayValue?.first?["reason"]?.stringValue?.contains("expected an integer") == true)

        // Everything mapped: no unmapped_parameters.
        let clean = try client.send("LegacyGreetIntent", parameters: ["name": "Cy"]) { _ in nil }
        #expect(clean.header["unmapped_parameters"] == nil)
        // The new name works as well.
        let direct = try client.send("GreetAppIntent", parameters: ["name": "Di"]) { _ in nil }
        #expect(direct.header["migrated_from"] == nil)
        #expect(direct.body["dialog"] == "Hello Di!")
    }

    @Test("legacy-era and new-style handlers side by side in one plugin; rolling a migration back keeps the legacy handler")
    func sideBySide() throws {
        let host = try TestHost(TestManifest(
            .newStyle("mixed"),
            .newStyle("rolledback", intents: ["LegacyGreetIntent", "DefaultsIntent"], env: ["NEWSTYLE_NO_MIGRATION": "1"])),
                                waitReady: ["mixed", "rolledback"])
        defer { host.stop() }
        let client = try host.client()
        let mixed = try #require(try host.plugin("mixed"))
        #expect(mixed["styles"]?["LegacyFarewellIntent"] == "plain")
        #expect(mixed["styles"]?["DefaultsIntent"] == "new")
        #expect(mixed["styles"]?["LegacyGreetIntent"] == "new")

        let farewell = try client.send("LegacyFarewellIntent", parameters: ["name": "Ada", "anything": [1, 2]]) { _ in nil }
        #expect(farewell.body["dialog"] == "Goodbye Ada")
        #expect(farewell.body["style"] == "plain")
        let newStyle = try client.send("DefaultsIntent", parameters: ["minutes": 40], options: {
            var o = RequestOptions(); o.plugin = "mixed"; return o
        }()) { _ in nil }
        #expect(newStyle.body["snippet"]?["minutes"] == 40)

        // Both plugins claim LegacyGreetIntent: a legacy handler in one, the migrated
        // new-style one in the other; the choice rules apply as for any conflict.
        var options = RequestOptions()
        options.choicePolicy = "fail"
        let conflict = busError { _ = try client.send("LegacyGreetIntent", parameters: ["name": "Ed"], options: options) { _ in nil } }
        #expect(conflict?.code == .choiceRequired)
        let styles = conflict?.details["candidates"]?.arrayValue?.map { "\($0["id"]?.displayText ?? ""):\($0["style"]?.displayText ?? "")" }
        #expect(styles == ["mixed:new", "rolledback:plain"])
        options.plugin = "rolledback"
        let legacy = try client.send("LegacyGreetIntent", parameters: ["name": "Ed", "shout": true], options: options) { _ in nil }
        #expect(legacy.body["dialog"] == "Hi Ed (legacy)")
        #expect(legacy.header["unmapped_parameters"] == nil)
    }
}
