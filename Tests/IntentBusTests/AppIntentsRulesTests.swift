import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Apple's metadata rules, each broken by one declaration written with the App Intents
/// API (Tests/Plugins/NewStyleTest/RuleIntents.swift): `intentbus validate` fails with
/// the rule named, and the host rejects the handshake with the same words.
@Suite("App Intents metadata rules: validate and the handshake", .serialized)
struct AppIntentsRulesTests {
    /// A rule's plugin setting and the words its error must contain.
    static let rules: [(rule: String, message: String)] = [
        ("untitled", "UntitledParameterIntent.note: parameter has no title (App Intents' rule: every @Parameter has a title)"),
        ("entity", "entity type NamelessEntity has no type display name (App Intents' rule: every AppEntity has a typeDisplayRepresentation)"),
        ("phrase", "contains neither ${applicationName} nor a parameter, so it would not be registered (App Intents' rule: every phrase contains \\(.applicationName) or a parameter)"),
        ("eleven", "11 app shortcuts declared; at most 10 are allowed per plugin (App Intents' rule: an AppShortcutsProvider declares at most 10 app shortcuts)"),
    ]

    @Test("intentbus validate fails with the rule named", arguments: rules.indices)
    func validate(_ index: Int) throws {
        let (rule, message) = Self.rules[index]
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", TestManifest(.newStyle("rule", env: ["NEWSTYLE_RULE": rule])).yaml)
        let result = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "rule"])
        #expect(result.status == 1, "\(rule): \(result.stdout)")
        #expect(result.stderr.contains(message), "\(rule): \(result.stderr)")
    }

    @Test("the host rejects the handshake with the rule named", arguments: rules.indices)
    func handshake(_ index: Int) throws {
        let (rule, message) = Self.rules[index]
        let host = try TestHost(TestManifest(.newStyle("rule", env: ["NEWSTYLE_RULE": rule])))
        defer { host.stop() }
        let failed = try host.waitForPlugin("rule", state: "failed")
        let reason = failed["reason"]?.stringValue ?? ""
        #expect(reason.hasPrefix("handshake rejected: "), "\(rule): \(reason)")
        #expect(reason.contains(message), "\(rule): \(reason)")
    }

    @Test("the same plugin without a broken declaration passes validate")
    func valid() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", TestManifest(.newStyle("rule")).yaml)
        let result = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "rule"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
