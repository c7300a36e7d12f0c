import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// `intentbus describe` and `intentbus validate` for every handler style, from a manifest,
/// with the real plugins run in describe mode (no host).
@Suite("CLI describe and validate")
struct CLIDescribeTests {
    let intentbus = Products.path("intentbus")

    func manifest(_ dir: TempDir, balanceDefinitions: Bool = true) -> String {
        let balance = TestManifest.Plugin.balance()
        return dir.write("plugins.yaml", TestManifest(balanceDefinitions ? balance : balance.definitions([]),
                                                      .focusFlow().with { $0.intents = ["StartFocusSessionIntent", "OpenProjectIntent"] },
                                                      .echo()).yaml)
    }

    @Test("describe shows a legacy intent's definition: parameters, range, prompt, phrases, codes")
    func describeLegacy() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let config = manifest(dir)
        let text = runCommand(intentbus, ["describe", "TopUpIntent", "--config", config])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("TopUpIntent — balance (legacy)"))
        #expect(text.stdout.contains("amount: Integer (required, range 5…100) — Betrag; asks “Wie viel Euro möchten Sie aufladen?”"),
                "\(text.stdout)")
        #expect(text.stdout.contains("phrases: “Lade ${amount} Euro auf”"))
        #expect(text.stdout.contains("success (success)  “${amount} aufgeladen."))
        let json = runCommand(intentbus, ["describe", "TopUpIntent", "--config", config, "--json"])
        let handler = try JSON.parse(json.stdout)["handlers"]?.arrayValue?.first
        #expect(handler?["style"] == "legacy")
        let amount = handler?["parameters"]?.arrayValue?.first
        #expect(amount?["min"]?.doubleValue == 5)
        #expect(amount?["max"]?.doubleValue == 100)
    }

    @Test("describe shows new-style parameters with defaults and ranges, and plain handlers as such")
    func describeNewStyleAndPlain() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let config = manifest(dir)
        let new = runCommand(intentbus, ["describe", "StartFocusSessionIntent", "--config", config])
        #expect(new.status == 0, "\(new.stderr)")
        #expect(new.stdout.contains("StartFocusSessionIntent — focusflow (new-style)"))
        #expect(new.stdout.contains("minutes: integer (required, default 25, range 5…180) — Dauer"), "\(new.stdout)")
        let open = runCommand(intentbus, ["describe", "OpenProjectIntent", "--config", config])
        #expect(open.stdout.contains("project: entity ProjectEntity (required)"), "\(open.stdout)")
        let plain = runCommand(intentbus, ["describe", "EchoIntent", "--config", config])
        #expect(plain.stdout.contains("EchoIntent — echo (plain)"))
        #expect(plain.stdout.contains("takes any JSON object"))
        let unknown = runCommand(intentbus, ["describe", "TopUpIntnt", "--config", config])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("claims TopUpIntnt; did you mean TopUpIntent?"), "\(unknown.stderr)")
    }

    @Test("describe lists a new-style intent's app-shortcut phrases and a legacy suggestedInvocationPhrase")
    func describePhrases() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let config = manifest(dir)
        let new = runCommand(intentbus, ["describe", "StartFocusSessionIntent", "--config", config])
        #expect(new.stdout.contains("app shortcut phrases: “"), "\(new.stdout)")
        let json = runCommand(intentbus, ["describe", "StartFocusSessionIntent", "--config", config, "--json"])
        let phrases = try JSON.parse(json.stdout)["handlers"]?.arrayValue?.first?["shortcut_phrases"]?.arrayValue ?? []
        #expect(!phrases.isEmpty && phrases.allSatisfy { $0.stringValue != nil }, "\(json.stdout)")
        let legacy = runCommand(intentbus, ["describe", "StatusIntent", "--config", config])
        #expect(legacy.stdout.contains("suggested phrase (Add to Siri): “Wie viel Guthaben habe ich bei"), "\(legacy.stdout)")
    }

    @Test("validate works for legacy and plain plugins, and finds a legacy handler without a definition")
    func validateEveryStyle() throws {
        let dir = TempDir()
        defer { dir.remove() }
        var config = manifest(dir)
        let legacy = runCommand(intentbus, ["validate", "balance", "--config", config])
        #expect(legacy.status == 0, "\(legacy.stderr)")
        #expect(legacy.stdout.contains("balance: valid — 3 legacy handlers"), "\(legacy.stdout)")
        #expect(legacy.stdout.contains("TopUpIntent  (legacy)  \"Guthaben aufladen\", 1 parameter"))
        let plain = runCommand(intentbus, ["validate", "echo", "--config", config])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("echo: valid — 1 plain handler"))
        let exec = runCommand(intentbus, ["validate", "--exec", Products.path("plugin-echo")])
        #expect(exec.status == 0, "\(exec.stderr)")

        config = manifest(dir, balanceDefinitions: false)
        let missing = runCommand(intentbus, ["validate", "balance", "--config", config])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("legacy handler for TopUpIntent has no intent definition"), "\(missing.stderr)")
    }

    @Test("validate finds a legacy handler's response code its definition lacks (HELLO lists the codes), before any request")
    func validateCodeDrift() throws {
        let dir = TempDir()
        defer { dir.remove() }
        // The legacy test plugin's ResolveHandler has `bogus`, on purpose not in its definition.
        let config = dir.write("plugins.yaml", TestManifest(.legacy()).yaml)
        let drift = runCommand(intentbus, ["validate", "legacytest", "--config", config])
        #expect(drift.status == 1, "\(drift.stdout) \(drift.stderr)")
        #expect(drift.stderr.contains("legacy handler for ResolveIntent has response code bogus that its definition does not declare"),
                "\(drift.stderr)")
        #expect(!drift.stderr.contains("ConfirmIntent has response code"), "ConfirmIntent's codes match: \(drift.stderr)")
        // HELLO carries the codes of legacy handlers only.
        let hello = runCommand(intentbus, ["validate", "--exec", Products.path("plugin-legacytest"), "--json"])
        let intents = try JSON.parse(hello.stdout)["intents"]?.arrayValue ?? []
        let resolve = intents.first { $0["name"] == "ResolveIntent" }
        // ResolveHandler's own codes: `failure` (the generic one, which every definition has),
        // `bogus` and `success`.
        #expect(resolve?["codes"]?.arrayValue?.compactMap(\.stringValue).sorted() == ["bogus", "failure", "success"], "\(hello.stdout)")
    }

    @Test("validate names why a remote or mdp_worker entry has no program to run, instead of trying one")
    func validateEntriesWithoutAProgram() {
        let dir = TempDir()
        defer { dir.remove() }
        let config = dir.write("plugins.yaml", """
        host:
          state_dir: state
          mdp: ipc://state/mdp.sock
        plugins:
          - id: far
            remote: true
            public_key: "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"
            IntentsSupported: [FarIntent]
          - id: workers
            mdp_worker: true
            IntentsSupported: [WorkIntent]
        """)
        let remote = runCommand(intentbus, ["validate", "far", "--config", config])
        #expect(remote.status == 2)
        #expect(remote.stderr.contains("far is a remote plugin (it runs on another machine)"), "\(remote.stderr)")
        let workers = runCommand(intentbus, ["validate", "workers", "--config", config])
        #expect(workers.status == 2)
        #expect(workers.stderr.contains("workers is an mdp_worker entry"), "\(workers.stderr)")
    }
}
