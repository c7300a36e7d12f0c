import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The App Intents API families not covered by the other new-style suites, each through
/// a real host and the NewStyleTest plugin (Tests/Plugins/NewStyleTest/FamilyIntents.swift):
/// string tables in the client's locale (.xcstrings and .strings), @Dependency, entities
/// with Int ids and @Property, openAppWhenRun, IntentDonationManager.
@Suite("App Intents API families end to end", .serialized)
struct AppIntentsFamiliesTests {
    static let intents = ["GreetingIntent", "CountVisitIntent", "ReadBookIntent", "DonatingIntent"]

    /// A host with the plugin's string tables in `dir`: English in a String Catalog,
    /// French in fr.lproj.
    func host(_ dir: TempDir) throws -> TestHost {
        _ = dir.write("Intents.xcstrings", """
            {"sourceLanguage": "de", "version": "1.0", "strings": {
              "greeting": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Hello %@!"}}}}}}
            """)
        // The default table, Localizable, for the dialogs written as literals.
        _ = dir.write("Localizable.xcstrings", """
            {"sourceLanguage": "de", "strings": {
              "%@ von %@": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "%2$@: %1$@"}}}}}}
            """)
        try FileManager.default.createDirectory(atPath: dir.path + "/fr.lproj", withIntermediateDirectories: true)
        _ = dir.write("fr.lproj/Intents.strings", "\"greeting\" = \"Bonjour %@ !\";\n")
        return try TestHost(TestManifest(.newStyle("families", intents: Self.intents,
                                                   env: ["NEWSTYLE_APPINTENTS": "1", "APPINTENTS_LOCALIZATIONS": dir.path])),
                            waitReady: ["families"])
    }

    func options(_ locale: String?) -> RequestOptions {
        var o = RequestOptions()
        o.locale = locale
        return o
    }

    @Test("LocalizedStringResource: the default value without a locale, the catalog's English, the .strings French, a region falls back to its language")
    func localization() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let host = try host(dir)
        defer { host.stop() }
        let client = try host.client()
        func greet(_ locale: String?) throws -> JSON? {
            try client.send("GreetingIntent", parameters: ["name": "Ada"], options: options(locale)) { _ in nil }.body["dialog"]
        }
        #expect(try greet(nil) == "Hallo Ada!")
        #expect(try greet("en") == "Hello Ada!")
        #expect(try greet("en-US") == "Hello Ada!")
        #expect(try greet("fr_FR") == "Bonjour Ada !")
        #expect(try greet("ja") == "Hallo Ada!", "no table: the default value")
        // Positional arguments in a translation; the entity's title is not a key.
        let read = try client.send("ReadBookIntent", parameters: ["book": "7"], options: options("en")) { _ in nil }
        #expect(read.body["dialog"] == "Michael Ende: Momo")
        // A locale header that is not a string, or too long, is refused by the host.
        let bad = busError { _ = try client.send("GreetingIntent", parameters: ["name": "Ada"],
                                                 options: options(String(repeating: "x", count: 40))) { _ in nil } }
        #expect(bad?.code == .badFrame, "\(String(describing: bad))")
    }

    @Test("@Dependency reads what the main added; entities with Int ids and @Property; openAppWhenRun; donations")
    func families() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let host = try host(dir)
        defer { host.stop() }
        let client = try host.client()
        let first = try client.send("CountVisitIntent") { _ in nil }
        let second = try client.send("CountVisitIntent") { _ in nil }
        #expect(first.body["value"] == 1)
        #expect(second.body["value"] == 2, "one dependency, shared by every request")

        let read = try client.send("ReadBookIntent", parameters: ["book": ["id": "12"]]) { _ in nil }
        #expect(read.body["value"]?["id"] == "12")
        #expect(read.body["value"]?["properties"]?["author"] == "Erich Kästner")
        #expect(read.body["dialog"] == "Emil von Erich Kästner")
        #expect(read.body["continue_in_app"] == true, "openAppWhenRun hands over to the client")
        // No string query: only ids resolve, so a text asks again (issue 29's re-ask), and
        // an id answers it.
        var asked: [Prompt] = []
        let byText = try client.send("ReadBookIntent", parameters: ["book": "nonsense"]) { event in
            guard case .prompt(let p) = event else { return nil }
            asked.append(p)
            return ["value": ["id": "12"]]
        }
        #expect(asked.map(\.parameter) == ["book"], "\(asked.map(\.raw))")
        #expect(byText.body["value"]?["id"] == "12")
        let all = try client.control("ib.entities", ["entity": "BookEntity", "query": "all"])
        #expect(all["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Momo", "Emil"])

        _ = try client.send("DonatingIntent", parameters: ["topic": "tea"]) { _ in nil }
        let donations = try client.control("ib.donations.list", ["plugin": "families"])["donations"]?.arrayValue ?? []
        // The host records every request too; the plugin's own donation carries its title.
        let donated = donations.filter { $0["title"] == "Donating" }
        #expect(donated.count == 1, "\(donations)")
        #expect(donated.first?["parameters"] == ["topic": "tea"])
        #expect(donated.first?["source"] == "plugin")
    }
}
