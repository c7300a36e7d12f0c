import Foundation
import Testing
import IntentBus

/// End-to-end: the FocusFlow and Cart example plugins.
@Suite("New-style example plugins", .serialized)
struct NewStyleExamplesTests {
    static func focusFlow(data: String) -> String {
        """
          - id: focusflow
            exec: \(Products.path("plugin-focusflow"))
            IntentsSupported: [StartFocusSessionIntent, OpenProjectIntent, SearchProjectsIntent, CreateProjectIntent]
            env:
              FOCUSFLOW_DATA: \(data)
        """
    }

    @Test("FocusFlow: the default session length, the range, a long session confirmed, projects by text and search")
    func focusFlow() throws {
        let data = TempDir()
        defer { data.remove() }
        let host = try TestHost(plugins: Self.focusFlow(data: data.path))
        defer { host.stop() }
        let client = try host.client()
        let start = try client.send("StartFocusSessionIntent") { _ in nil }
        #expect(start.body["dialog"] == "Focus session started for 25 minutes.")
        let tooLong = busError { _ = try client.send("StartFocusSessionIntent", parameters: ["minutes": 200]) { _ in nil } }
        #expect(tooLong?.details["parameter"] == "minutes")
        var asked: [Prompt] = []
        let long = try client.send("StartFocusSessionIntent", parameters: ["minutes": 150, "project": "report"]) { event in
            guard case .prompt(let p) = event else { return nil }
            asked.append(p)
            return ["value": true]
        }
        #expect(asked.map(\.kind) == ["confirmation"])
        #expect(long.body["dialog"] == "Focus session started for 150 minutes on Quarterly report.")

        let search = try client.send("SearchProjectsIntent", parameters: ["term": "website"]) { _ in nil }
        let titles = search.body["value"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == ["Website relaunch", "Website analytics"])
        #expect(search.body["snippet"]?["projects"]?.arrayValue?.count == 2)

        // "Website" matches two projects: the SDK asks which one.
        var options: [String] = []
        let open = try client.send("OpenProjectIntent", parameters: ["project": "website"]) { event in
            guard case .prompt(let p) = event else { return nil }
            options = p.options.compactMap { $0["title"]?.stringValue }
            return ["value": p.options[1]["id"] ?? .null]
        }
        #expect(options == ["Website relaunch", "Website analytics"])
        #expect(open.body["dialog"] == "Opened Website analytics.")
    }

    @Test("FocusFlow: project ids are stable across plugin restarts (persisted on disk)")
    func stableIds() throws {
        let data = TempDir()
        defer { data.remove() }
        var firstIds: [String] = []
        var createdId: String?
        do {
            let host = try TestHost(plugins: Self.focusFlow(data: data.path), waitReady: ["focusflow"])
            defer { host.stop() }
            let all = try host.client().control("ib.entities", ["entity": "ProjectEntity", "query": "all"])
            firstIds = all["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            let created = try host.client().send("CreateProjectIntent", parameters: ["name": "Thesis"]) { _ in nil }
            createdId = created.body["value"]?["id"]?.stringValue
        }
        #expect(firstIds.count == 4)
        let id = try #require(createdId)
        let host = try TestHost(plugins: Self.focusFlow(data: data.path), waitReady: ["focusflow"])
        defer { host.stop() }
        let again = try host.client().control("ib.entities", ["entity": "ProjectEntity", "query": "ids", "ids": .array((firstIds + [id]).map { .string($0) })])
        #expect(again["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == firstIds + [id])
        let open = try host.client().send("OpenProjectIntent", parameters: ["project": ["id": .string(id)]]) { _ in nil }
        #expect(open.body["dialog"] == "Opened Thesis.")
    }

    @Test("Cart: ShowCartIntent runs the migrated handler and reports includeSaved; AddToCartIntent stays legacy")
    func cartMigration() throws {
        let cart = { (env: String) in """
          - id: cart
            exec: \(Products.path("plugin-cart"))
            IntentsSupported: [ShowCartIntent, ShowCartAppIntent, AddToCartIntent]
        \(env)
        """ }
        let host = try TestHost(plugins: cart(""))
        defer { host.stop() }
        let client = try host.client()
        let added = try client.send("AddToCartIntent", parameters: ["customer": "ada", "item": "Mug"]) { _ in nil }
        #expect(added.body["code"] == "success")
        let shown = try client.send("ShowCartIntent", parameters: ["customer": "ada", "includeSaved": true]) { _ in nil }
        #expect(shown.body["dialog"] == "4 items in ada's cart, 34,30 € in total.")
        #expect(shown.header["handled_by"] == "ShowCartAppIntent")
        #expect(shown.header["unmapped_parameters"]?.arrayValue?.first?["name"] == "includeSaved")
        // Without a customer the host asks first, with the intent's dialog.
        var dialog = ""
        _ = try client.send("ShowCartIntent") { event in
            guard case .prompt(let p) = event else { return nil }
            dialog = p.dialog
            return ["value": "bob"]
        }
        #expect(dialog == "Whose cart?")

        // Rolled back: the legacy handler serves ShowCartIntent again, includeSaved included.
        let rolledBack = try TestHost(plugins: cart("    env:\n      CART_MIGRATION: \"off\"\n").replacingOccurrences(of: "ShowCartAppIntent, ", with: ""))
        defer { rolledBack.stop() }
        let legacy = try rolledBack.client().send("ShowCartIntent", parameters: ["customer": "ada", "includeSaved": true]) { _ in nil }
        #expect(legacy.body["dialog"] == "Your cart: 2× Espresso beans, 1× Paper filters, saved: Milk frother")
    }
}
