import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// EntityPropertyQuery over the bus: `ib.entities` query `property` through a real host
/// and the NewStyleTest plugin's TaskEntity (Tests/Plugins/NewStyleTest/TaskIntents.swift),
/// whose property names come from the AppIntentsMetadata build-tool plugin's scan.
@Suite("App Intents property queries end to end", .serialized)
struct AppIntentsPropertyQueryTests {
    static let env = ["NEWSTYLE_APPINTENTS": "1"]
    static let intents = AppIntentsFamiliesTests.intents

    func titles(_ body: JSON) -> [String] { body["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? [] }

    func query(_ client: IntentClient, _ fields: [String: JSON]) throws -> JSON {
        try client.control("ib.entities", .object(["entity": "TaskEntity", "query": "property"].merging(fields) { $1 }))
    }

    @Test("filters with each declared comparator, and/or, sort and limit reach entities(matching:mode:sortedBy:limit:)")
    func queries() throws {
        let host = try TestHost(TestManifest(.newStyle("tasks", intents: Self.intents, env: Self.env)), waitReady: ["tasks"])
        defer { host.stop() }
        let client = try host.client()
        let contains = try query(client, ["filters": [["property": "title", "comparator": "contains", "value": "steuer"]]])
        #expect(titles(contains) == ["Steuer", "Steuererklärung"])
        #expect(contains["results"]?.arrayValue?.first?["properties"] == ["title": "Steuer", "priority": 3])
        let equal = try query(client, ["filters": [["property": "title", "comparator": "equal_to", "value": "Garten"]]])
        #expect(titles(equal) == ["Garten"])
        let either = try query(client, ["mode": "or", "filters": [["property": "title", "comparator": "contains", "value": "Garten"],
                                                                  ["property": "priority", "comparator": "greater_than", "value": 4]]])
        #expect(titles(either) == ["Steuererklärung", "Garten", "Gartenzaun"])
        let both = try query(client, ["filters": [["property": "title", "comparator": "contains", "value": "Garten"],
                                                  ["property": "priority", "comparator": "greater_than", "value": "2"]]])
        #expect(titles(both) == ["Gartenzaun"], "and; \"2\" coerced to the property's integer type by the host")
        let sorted = try query(client, ["filters": [["property": "priority", "comparator": "is_between", "value": [1, 5]]],
                                        "sort": [["property": "priority", "order": "descending"]], "limit": 2])
        #expect(titles(sorted) == ["Steuererklärung", "Gartenzaun"], "sorted by priority, held to the limit")
    }

    @Test("the host refuses what the declaration does not allow, before the plugin sees it")
    func refusals() throws {
        let host = try TestHost(TestManifest(.newStyle("tasks", intents: Self.intents, env: Self.env)), waitReady: ["tasks"])
        defer { host.stop() }
        let client = try host.client()
        let cases: [([String: JSON], String)] = [
            (["filters": [["property": "colour", "comparator": "equal_to", "value": "red"]]], "no queryable property \"colour\" (it has: title, priority)"),
            (["filters": [["property": "priority", "comparator": "contains", "value": 3]]], "priority is compared with greater_than, is_between, not \"contains\""),
            (["filters": [["property": "priority", "comparator": "greater_than", "value": "hoch"]]], "filter 1 (priority):"),
            (["filters": [["property": "priority", "comparator": "is_between", "value": 3]]], "is_between takes [low, high]"),
            (["sort": [["property": "title"]]], "cannot sort by \"title\" (sortable: priority)"),
            (["limit": 0], "limit is an integer within 1…1000"),
            (["mode": "xor"], "mode is and or or"),
            (["filters": .array(Array(repeating: ["property": "title", "comparator": "contains", "value": "a"], count: 17))], "at most 16 filters"),
        ]
        for (fields, message) in cases {
            let e = busError { _ = try query(client, fields) }
            #expect(e?.code == .invalidParameters, "\(fields)")
            #expect(e?.message.contains(message) == true, "\(fields): \(String(describing: e?.message))")
        }
        let books = busError { _ = try client.control("ib.entities", ["entity": "BookEntity", "query": "property"]) }
        #expect(books?.message.contains("BookEntity has no property query") == true, "\(String(describing: books))")
    }

    @Test("without the scanned names a property query fails the handshake, saying where names come from")
    func unnamed() throws {
        let env = Self.env.merging(["NEWSTYLE_BROKEN": "unnamed"]) { $1 }
        let host = try TestHost(TestManifest(.newStyle("tasks", intents: Self.intents, env: env)))
        defer { host.stop() }
        let reason = try host.waitForPlugin("tasks", state: "failed")["reason"]?.stringValue ?? ""
        #expect(reason.contains("entity type TaskEntity: property_query: property #1 has no name (a key path does not carry one: add the AppIntentsMetadataPlugin build-tool plugin"), "\(reason)")
        #expect(reason.contains("sortable property #1 has no name"), "\(reason)")
    }
}
