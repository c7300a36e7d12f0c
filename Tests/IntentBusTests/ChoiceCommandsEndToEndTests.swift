import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport

/// End-to-end: `explain` and `choices` over the bus and in the CLI, and a corrupt choices
/// database at start, over the real host, real plugins and a real SQLite file.
@Suite("Choice commands, end to end", .serialized)
struct ChoiceCommandsEndToEndTests {
    @Test("explain says who would handle an intent and why, over the bus and in the CLI")
    func explain() throws {
        let plugins = claimants(["alpha", "beta"], priority: ["beta": 2]) + [.test("solo", intents: ["SoloIntent"])]
        let host = try TestHost(TestManifest(plugins),
                                waitReady: ["alpha", "beta", "solo"])
        defer { host.stop() }
        let text = cli(host, ["explain", "SharedIntent"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("SharedIntent is claimed by 2 plugins:"))
        #expect(text.stdout.contains("alpha"))
        #expect(text.stdout.contains("Test beta"))
        #expect(text.stdout.contains("remembered default: none"))
        #expect(text.stdout.contains("decision: no remembered or preset default: the client is asked to choose"))
        #expect(text.stdout.contains("--choice default  → beta (priority)"))

        _ = try host.client().control("ib.choices.set", ["intent": "SharedIntent", "plugin": "alpha", "client": "ann"])
        let forAnn = cli(host, ["explain", "SharedIntent", "--client", "ann", "--json"])
        #expect(forAnn.status == 0, "\(forAnn.stderr)")
        let body = try JSON.parse(forAnn.stdout)
        #expect(body["candidates"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["alpha", "beta"])
        #expect(body["candidates"]?.arrayValue?.first?["state"] == "ready")
        #expect(body["candidates"]?.arrayValue?.last?["priority"] == 2)
        #expect(body["remembered"]?["plugin"] == "alpha")
        #expect(body["remembered"]?["client"] == "ann")
        #expect(body["decision"]?["rule"] == "remembered")
        #expect(body["decision"]?["plugin"] == "alpha")
        #expect(body["policies"]?["fail"]?["plugin"] == "alpha")
        let forBob = try JSON.parse(cli(host, ["explain", "SharedIntent", "--client", "bob", "--json"]).stdout)
        #expect(forBob["remembered"] == .null)
        #expect(forBob["decision"]?["rule"] == "prompt")

        let solo = cli(host, ["explain", "SoloIntent"])
        #expect(solo.stdout.contains("decision: only solo claims SoloIntent"))
        let unknown = cli(host, ["explain", "NoSuchIntent"])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains("no plugin claims NoSuchIntent"))
    }

    @Test("choices list, set and reset from the CLI change what the host does")
    func choicesCommands() throws {
        let plugins = claimants(["alpha", "beta"]) + [.test("other", intents: ["OtherIntent"])]
        let host = try TestHost(TestManifest(plugins), waitReady: ["alpha", "beta", "other"])
        defer { host.stop() }
        let empty = cli(host, ["choices", "list"])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("no remembered choices"))
        #expect(empty.stdout.contains("stored in \(host.dir.path)/state/choices.sqlite3"))

        let set = cli(host, ["choices", "set", "SharedIntent", "beta"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("SharedIntent → beta, for every client"))
        let (reply, prompts) = try send(try host.client())
        #expect(prompts.isEmpty)
        #expect(reply.plugin == "beta")

        #expect(cli(host, ["choices", "set", "SharedIntent", "alpha", "--client", "bob"]).status == 0)
        let listed = cli(host, ["choices", "list"])
        let rows = listed.stdout.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("SharedIntent") && $0.contains("(everyone)") && $0.contains("beta") && $0.contains("cli") })
        #expect(rows.contains { $0.hasPrefix("SharedIntent") && $0.contains("bob") && $0.contains("alpha") })
        let (bobs, _) = try send(try host.client(), options: options(client: "bob"))
        #expect(bobs.plugin == "alpha")

        let wrong = cli(host, ["choices", "set", "SharedIntent", "other"])
        #expect(wrong.status == 3)
        #expect(wrong.stderr.contains("plugin other does not claim SharedIntent"))
        let usage = cli(host, ["choices", "set", "SharedIntent"])
        #expect(usage.status == 2)

        let resetBob = cli(host, ["choices", "reset", "SharedIntent", "--client", "bob"])
        #expect(resetBob.stdout.contains("forgot 1 remembered choice for SharedIntent (client bob)"))
        let (bobAgain, _) = try send(try host.client(), options: options(client: "bob"))
        #expect(bobAgain.plugin == "beta", "with bob's own choice gone, everyone's applies")

        let resetAll = cli(host, ["choices", "reset", "--all"])
        #expect(resetAll.status == 0, "\(resetAll.stderr)")
        #expect(resetAll.stdout.contains("forgot 1 remembered choice"))
        let error = try sendExpectingError(try host.client(), options: options(choice: "fail"))
        #expect(error.code == .choiceRequired)
        #expect(cli(host, ["choices", "list"]).stdout.contains("no remembered choices"))
    }

    @Test("a corrupt choices database at start is set aside and logged, and the host keeps working and remembering")
    func corruptDatabaseRecovered() throws {
        let dir = TempDir()
        _ = dir.write("state/choices.sqlite3", String(repeating: "this is not a database\n", count: 200))
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"])), dir: dir, waitReady: ["alpha", "beta"])
        defer { host.stop() }
        #expect(host.logEventually(contains: "choice store: choices.sqlite3 was corrupt (file is not a database)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(dir.path)/state")
        #expect(files.contains { $0.hasPrefix("choices.sqlite3.corrupt-") })

        let (reply, _) = try send(try host.client()) { _ in ["value": "alpha", "remember": "always"] }
        #expect(reply.plugin == "alpha")
        let list = try host.client().control("ib.choices.list")
        #expect(list["store"]?["persistent"] == true)
        #expect(list["store"]?["recovered"]?.stringValue?.contains("was corrupt") == true)
        #expect(list["choices"]?.arrayValue?.first?["plugin"] == "alpha")
    }
}
