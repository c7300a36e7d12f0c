import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The built `intentbus` executable, run as a user runs it: stdout, stderr, exit code.
@Suite("CLI", .serialized)
struct CLITests {
    let intentbus = Products.path("intentbus")

    @Test("a broken manifest: every error as file:line:column, exit 6, no host left running")
    func brokenManifest() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", """
        plugins:
          - id: echo
            exec: /bin/true
            IntentsSupported: [EchoIntent]
            timout: 5s
          - id: echo
            exec: /bin/true
            IntentsSupported: [EchoIntent]
        """)
        let r = runCommand(intentbus, ["host", "--config", path], timeout: 30)
        #expect(r.status == 6)
        #expect(r.stderr.contains("\(path):5:5: error:"), "\(r.stderr)")
        #expect(r.stderr.contains("unknown key 'timout'; did you mean 'timeout'?"))
        #expect(r.stderr.contains("\(path):6:9: error:"))
        #expect(r.stderr.contains("duplicate plugin id 'echo'"))
    }

    @Test("send prints the plugin's answer; exit codes tell success, bus errors, timeouts and a missing host apart")
    func sendAndExitCodes() throws {
        let host = try TestHost(TestManifest(.test("alpha", timeout: "300ms")))
        defer { host.stop() }
        let ep = ["--endpoint", host.frontend]
        let ok = runCommand(intentbus, ["send", "TestIntent", "n=3", "name=Alex", "tags:=[\"a\"]", "--json"] + ep)
        #expect(ok.status == 0, "\(ok.stderr)")
        let reply = try JSON.parse(ok.stdout)
        #expect(reply["status"] == "success")
        #expect(reply["body"]?["params"] == ["n": 3, "name": "Alex", "tags": ["a"]])

        let failed = runCommand(intentbus, ["send", "TestIntent", "fail=true"] + ep)
        #expect(failed.status == 1)

        let unknown = runCommand(intentbus, ["send", "NoSuchIntent"] + ep)
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("unknown_intent"))

        let slow = runCommand(intentbus, ["send", "TestIntent", "sleep_ms=5000"] + ep)
        #expect(slow.status == 4)
        #expect(slow.stderr.contains("timeout"))

        let usage = runCommand(intentbus, ["send"] + ep)
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("send needs an INTENT"))

        let nobody = runCommand(intentbus, ["send", "TestIntent", "--timeout", "0.2", "--endpoint",
                                            "ipc://\(host.dir.path)/nobody.sock"])
        #expect(nobody.status == 5)
        #expect(nobody.stderr.contains("no host is running at"))
    }

    @Test("prompts are answered with --answer in scripts, and refused clearly without one")
    func scriptedAnswers() throws {
        let host = try TestHost(TestManifest(.test("asker")))
        defer { host.stop() }
        let ep = ["--endpoint", host.frontend]
        let answered = runCommand(intentbus, ["send", "TestIntent", "ask=color", "--answer", "color=blue", "--json"] + ep)
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(try JSON.parse(answered.stdout)["body"]?["answer"] == "blue")

        let unanswered = runCommand(intentbus, ["send", "TestIntent", "ask=color"] + ep)
        #expect(unanswered.status == 3)
        #expect(unanswered.stderr.contains("--answer color="))
    }

    @Test("plugins lists state, pid and intents")
    func pluginsCommand() throws {
        let host = try TestHost(TestManifest(.test("alpha", intents: ["AlphaIntent", "BetaIntent"])), waitReady: ["alpha"])
        defer { host.stop() }
        let r = runCommand(intentbus, ["plugins", "--endpoint", host.frontend])
        #expect(r.status == 0)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("alpha") })
        #expect(line.contains("ready"))
        #expect(line.contains("AlphaIntent (plain), BetaIntent (plain)"))
        let pid = try #require(try host.plugin("alpha")?["pid"]?.intValue)
        #expect(line.contains(String(pid)))
    }

    @Test("every command answers --help with exit 0")
    func help() {
        for args in [["--help"], ["host", "--help"], ["send", "--help"], ["plugins", "--help"]] {
            let r = runCommand(intentbus, args)
            #expect(r.status == 0, "\(args)")
            #expect(r.stdout.contains("usage: intentbus"), "\(args)")
        }
        let bad = runCommand(intentbus, ["frobnicate"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unknown command"))
    }
}
