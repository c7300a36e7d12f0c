import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: the README's tour of FocusFlow's `system.search` (docs/schemas.md) and its
/// snippet actions (docs/results.md), through the CLI.
@Suite("FocusFlow's system.search and snippet actions", .serialized)
struct FlowExamplesTests {
    @Test("intentbus send system.search lists FocusFlow's projects with Open and Focus actions, and --action runs one")
    func focusFlowSearch() throws {
        let data = TempDir()
        defer { data.remove() }
        let focusFlow = TestManifest.Plugin.focusFlow(data: data.path).with {
            $0.intents = ["StartFocusSessionIntent", "OpenProjectIntent", "CreateProjectIntent", "system.search"]
        }
        let host = try TestHost(TestManifest(focusFlow), waitReady: ["focusflow"])
        defer { host.stop() }
        let intentbus = Products.path("intentbus")
        let listed = runCommand(intentbus, ["send", "system.search", "criteria=web", "--endpoint", host.frontend])
        #expect(listed.status == 0)
        // Seed 003's snippet: a row per project with its "open" button.
        #expect(listed.stdout.contains("Projekte"))
        #expect(listed.stdout.contains("1) Öffnen → OpenProjectIntent"))
        #expect(listed.stdout.contains("2) Öffnen → OpenProjectIntent"))
        let ran = runCommand(intentbus, ["send", "system.search", "criteria=web", "--action", "2", "--endpoint", host.frontend])
        #expect(ran.status == 0)
        #expect(ran.stdout.contains("Website analytics geöffnet."), "\(ran.stdout)")
        // An English client: the snippet and the opened intent's dialog from en.lproj.
        let english = runCommand(intentbus, ["send", "system.search", "criteria=garden", "--action", "1", "--locale", "en",
                                             "--endpoint", host.frontend])
        #expect(english.stdout.contains("1) Open → OpenProjectIntent"), "\(english.stdout)")
        #expect(english.stdout.contains("Opened Garden shed."), "\(english.stdout)")
        // describe finds the intent behind the schema.
        let described = runCommand(intentbus, ["describe", "system.search", "--config", host.manifestPath])
        #expect(described.stdout.contains("schema: system.search"))
        #expect(described.stdout.contains("criteria: string (required)"))
    }
}
