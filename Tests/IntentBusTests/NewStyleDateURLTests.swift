import Foundation
import Testing
import IntentBus
import PluginHost
import IntentBusTestSupport

/// End-to-end: `date` and `url` parameters (docs/protocol.md §9.1) through the real host
/// and the real new-style test plugin (ScheduleIntent, with NEWSTYLE_DATES=1) and FocusFlow.
@Suite("New-style date and url parameters", .serialized)
struct NewStyleDateURLTests {
    static let intents = NewStyleTests.allIntents + ["ScheduleIntent"]

    @Test("a date is normalised by the host and decoded into a Foundation Date; defaults apply; bad values are refused")
    func datesAndURLs() throws {
        let host = try TestHost(TestManifest(.newStyle("ns", intents: Self.intents, env: ["NEWSTYLE_DATES": "1"])))
        defer { host.stop() }
        let client = try host.client()

        // Date and time with an offset: the plugin gets UTC; its Date is that instant.
        let timed = try client.send("ScheduleIntent", parameters: ["due": "2026-12-01T09:30:00+01:00",
                                                                   "link": "https://intentbus.example/p?q=1"]) { _ in nil }
        #expect(timed.body["dialog"] == "Due 2026-12-01T08:30:00Z")
        #expect(timed.body["snippet"]?["due"] == "2026-12-01T08:30:00Z")
        #expect(timed.body["snippet"]?["due_seconds"]?.doubleValue == 1_796_113_800)
        #expect(timed.body["snippet"]?["link_host"] == "intentbus.example")
        // Defaults (a date-only start, a URL) applied by the host.
        #expect(timed.body["snippet"]?["start_seconds"]?.doubleValue == 1_796_083_200)
        #expect(timed.body["snippet"]?["home"] == "https://example.com/home")

        // Date only, and minutes without seconds: accepted.
        let day = try client.send("ScheduleIntent", parameters: ["due": "2028-02-29"]) { _ in nil }
        #expect(day.body["snippet"]?["due"] == "2028-02-29")
        #expect(day.body["snippet"]?["link_host"] == .null)
        let short = try client.send("ScheduleIntent", parameters: ["due": "2026-12-01T23:30-02:00"]) { _ in nil }
        #expect(short.body["snippet"]?["due"] == "2026-12-02T01:30:00Z")

        // Not ISO 8601, an impossible day, a time without offset, a relative URL: refused.
        for bad: JSON in ["next tuesday", "2026-02-29", "2026-12-01T09:30", "01.12.2026", 20261201] {
            let e = busError { _ = try client.send("ScheduleIntent", parameters: ["due": bad]) { _ in nil } }
            #expect(e?.code == .invalidParameters, "\(bad)")
            #expect(e?.details["parameter"] == "due", "\(bad)")
            #expect(e?.message.contains("ISO 8601") == true, "\(bad)")
        }
        for bad: JSON in ["/relative/path", "example.com", "https:"] {
            let e = busError { _ = try client.send("ScheduleIntent", parameters: ["due": "2026-12-01", "link": bad]) { _ in nil } }
            #expect(e?.code == .invalidParameters, "\(bad)")
            #expect(e?.details["parameter"] == "link", "\(bad)")
            #expect(e?.message.contains("absolute URL") == true, "\(bad)")
        }
    }

    @Test("a missing required date is asked with type date; the answer is checked like a given value")
    func missingDateAsked() throws {
        let host = try TestHost(TestManifest(.newStyle("ns", intents: Self.intents, env: ["NEWSTYLE_DATES": "1"])))
        defer { host.stop() }
        let client = try host.client()
        var prompts: [Prompt] = []
        let reply = try client.send("ScheduleIntent") { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": "2027-01-15T12:00:00Z"]
        }
        #expect(prompts.count == 1)
        #expect(prompts.first?.parameter == "due")
        #expect(prompts.first?.dialog == "When is it due?")
        #expect(prompts.first?.raw["type"] == "Date")
        #expect(reply.body["snippet"]?["due"] == "2027-01-15T12:00:00Z")

        let bad = busError { _ = try client.send("ScheduleIntent") { _ in ["value": "soon"] } }
        #expect(bad?.code == .invalidParameters)
        #expect(bad?.details["parameter"] == "due")
    }

    @Test("the Swift SDK writes the date/url intent entry of newstyle.json's hello-new-style-dates, byte for byte")
    func swiftMetadataMatchesVector() throws {
        let vector = try #require(Conformance.file("newstyle.json")["vectors"]?.arrayValue?
            .first { $0["name"] == "hello-new-style-dates" })
        let expected = try #require(vector["message"]?["body"]?["metadata"]?["new_style"]?["intents"]?.arrayValue?.first)
        #expect(Conformance.metadataVectors.first { $0.name == "hello-new-style-dates" }?.problems == [])
        let described = runCommand(Products.path("plugin-newstyletest"), [], environment: ["INTENTBUS_DESCRIBE": "1", "NEWSTYLE_DATES": "1"])
        #expect(described.status == 0)
        let hello = try JSON.parse(Data(described.stdout.utf8))
        let written = try #require(hello["metadata"]?["new_style"]?["intents"]?.arrayValue?
            .first { $0["identifier"] == "ScheduleIntent" })
        #expect(written.canonicalString == expected.canonicalString)
    }

    @Test("the host's metadata check: a range on a date is refused, defaults must be in the wire form")
    func metadataChecks() {
        let hello: JSON = ["intents": [["name": "D", "style": "new"]], "metadata": ["new_style": ["version": 1, "intents": [
            ["identifier": "D", "title": "D", "parameters": [
                ["name": "when", "title": "When", "type": "date", "min": "2026-01-01", "max": "2026-12-31"],
                ["name": "at", "title": "At", "type": "date", "default": "tomorrow"],
                ["name": "site", "title": "Site", "type": "url", "default": "/home"],
                ["name": "ok", "title": "OK", "type": "url", "default": "https://example.com"]]]]]]]
        #expect(NewStyleMetadata.problems(inHello: hello) == [
            "D.when: a range needs a numeric type, not date (date parameters have no ranges: a bound on a date needs the user's time zone and today's date, which the host does not have; check dates in perform())",
            "D.at: default \"tomorrow\" is invalid: expected \(IntentDateText.expectedForm), got \"tomorrow\"",
            "D.site: default \"/home\" is invalid: expected \(IntentURLText.expectedForm), got \"/home\"",
        ])
    }

    @Test("FocusFlow: CreateProjectIntent takes an optional due date, shown in the project's subtitle")
    func focusFlowDue() throws {
        let data = TempDir()
        defer { data.remove() }
        let host = try TestHost(TestManifest(.focusFlow(data: data.path)))
        defer { host.stop() }
        let client = try host.client()
        let created = try client.send("CreateProjectIntent", parameters: ["name": "Thesis", "due": "2027-03-01"]) { _ in nil }
        // Seed 003's subtitle: "Fällig" and the date, abbreviated, in the plugin's
        // locale (German, its development region), not Foundation's English default.
        let subtitle = created.body["value"]?["subtitle"]?.stringValue ?? ""
        #expect(subtitle == "Fällig 1. März 2027", "\(subtitle)")
        // A client that gives its locale gets the date in it.
        var inEnglish = RequestOptions()
        inEnglish.locale = "en-US"
        let english = try client.send("CreateProjectIntent", parameters: ["name": "Essay", "due": "2027-12-15"],
                                      options: inEnglish) { _ in nil }
        #expect(english.body["value"]?["subtitle"] == "Fällig Dec 15, 2027")
        let plain = try client.send("CreateProjectIntent", parameters: ["name": "Hobby"]) { _ in nil }
        #expect(plain.body["value"]?["title"] == "Hobby")
        #expect(plain.body["value"]?["subtitle"]?.stringValue == nil)
        let bad = busError { _ = try client.send("CreateProjectIntent", parameters: ["name": "X", "due": "someday"]) { _ in nil } }
        #expect(bad?.details["parameter"] == "due")
    }
}
