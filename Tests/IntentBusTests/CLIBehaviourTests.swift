import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The built `intentbus` as a user meets it: no host, typed parameters, declined
/// confirmations, progress, and completion in a real bash.
@Suite("CLI behaviour", .serialized)
struct CLIBehaviourTests {
    let intentbus = Products.path("intentbus")

    @Test("with no host, client commands say so within 2 s and exit 5")
    func noHost() throws {
        let dir = TempDir()
        defer { dir.remove() }
        // A socket file nobody listens on (left behind by a killed host).
        let stale = "\(dir.path)/stale.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            _ = stale.utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(bound == 0)
        let cases: [(String, [String], String)] = [
            ("ipc://\(dir.path)/missing.sock", ["send", "TestIntent"], "does not exist"),
            ("ipc://\(stale)", ["send", "TestIntent", "--timeout", "60"], "nothing answered"),
            ("ipc://\(dir.path)/missing.sock", ["plugins"], "does not exist"),
            ("ipc://\(stale)", ["explain", "TestIntent"], "nothing answered"),
            ("ipc://\(stale)", ["choices", "list"], "nothing answered"),
        ]
        for (endpoint, args, why) in cases {
            let started = Date()
            let r = runCommand(intentbus, args + ["--endpoint", endpoint], timeout: 20)
            let took = Date().timeIntervalSince(started)
            #expect(r.status == 5, "\(args): \(r.stderr)")
            #expect(took < 2.0, "\(args) took \(took) s")
            #expect(r.stderr.contains("no host is running at \(endpoint)"), "\(r.stderr)")
            #expect(r.stderr.contains(why), "\(r.stderr)")
        }
    }

    @Test("outside the project directory a client command says how to point at a host (exit 5); send suggests a near intent")
    func whichHostAndDidYouMean() throws {
        let elsewhere = NSTemporaryDirectory() + "ib-nowhere-\(getpid())"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let r = runCommand("/usr/bin/env", ["-u", "INTENTBUS_ENDPOINT", "-u", "INTENTBUS_CONFIG", "/bin/sh", "-c",
                                            "cd \(elsewhere) && exec \(intentbus) send StatusIntent"])
        #expect(r.status == 5, "\(r.stderr)")
        #expect(r.stderr.contains("--endpoint") && r.stderr.contains("--config") && !r.stderr.contains("cannot read"), "\(r.stderr)")
        let host = try TestHost(TestManifest(.test("alpha", intents: ["StatusIntent"])), waitReady: ["alpha"])
        defer { host.stop() }
        let typo = runCommand(intentbus, ["send", "StatusIntnet", "--endpoint", host.frontend])
        #expect(typo.status == 3 && typo.stderr.contains("did you mean \"StatusIntent\"?"), "\(typo.stderr)")
    }

    @Test("key=value: JSON numbers are typed, 0176 and +4 stay strings; a declined confirmation exits 1")
    func parametersAndDeclines() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let ep = ["--endpoint", host.frontend]
        let typed = runCommand(intentbus, ["send", "TestIntent", "phone=0176", "n=12", "x=1.5", "neg=-3", "plus=+4",
                                           "zero=0", "flag=true", "--json"] + ep)
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(try JSON.parse(typed.stdout)["body"]?["params"] == [
            "phone": "0176", "n": 12, "x": 1.5, "neg": -3, "plus": "+4", "zero": 0, "flag": true,
        ])

        let declined = runCommand(intentbus, ["send", "TestIntent", "confirm=true", "--answer", "confirm=no"] + ep)
        #expect(declined.status == 1, "\(declined.stderr)")
        #expect(declined.stdout.contains("confirmed: false") && !declined.stdout.contains("{"), "human text, not JSON: \(declined.stdout)")
        #expect(declined.stderr.contains("(declined; alpha did not go ahead)"), "\(declined.stderr)")
        let accepted = runCommand(intentbus, ["send", "TestIntent", "confirm=true", "--answer", "confirm=yes"] + ep)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stderr.contains("(success from alpha)") == false, "no dialog: the body is shown as text")
        #expect(accepted.stdout.contains("params:\n  confirm: true\n"), "nested fields indented: \(accepted.stdout)")

        // Not a terminal: progress is one plain line per update.
        let progress = runCommand(intentbus, ["send", "TestIntent", "progress=2"] + ep)
        #expect(progress.status == 0)
        #expect(progress.stderr.contains("… step 1 of 2 (50 %)\n… step 2 of 2 (100 %)\n"), "\(progress.stderr)")
        #expect(!progress.stderr.contains("\u{1B}["))
    }

    @Test("new-style replies name status and plugin like legacy ones")
    func newStyleStatusLine() throws {
        let focusFlow = TestManifest.Plugin.focusFlow().with { $0.intents = ["StartFocusSessionIntent"] }
        let host = try TestHost(TestManifest(focusFlow), waitReady: ["focusflow"])
        defer { host.stop() }
        let r = runCommand(intentbus, ["send", "StartFocusSessionIntent", "--endpoint", host.frontend])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("25 Minuten"), "\(r.stdout)")
        #expect(r.stderr.contains("(success from focusflow)"), "\(r.stderr)")
    }

    @Test("bash completion, generated from the declarations, completes commands, options, values and host names")
    func bashCompletion() throws {
        let host = try TestHost(TestManifest(.test("alpha", intents: ["AlphaIntent", "BetaIntent"])), waitReady: ["alpha"])
        defer { host.stop() }
        let script = runCommand(intentbus, ["completion", "bash"])
        #expect(script.status == 0)
        let file = host.dir.write("intentbus.bash", script.stdout)
        func complete(_ words: [String]) -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = runCommand("/bin/bash", ["-c", """
                source '\(file)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                _intentbus
                printf '%s\\n' "${COMPREPLY[@]}"
                """], environment: ["INTENTBUS_ENDPOINT": host.frontend])
            return r.stdout.split(separator: "\n").map(String.init)
        }
        #expect(complete([intentbus, "se"]) == ["send"])
        #expect(complete([intentbus, "send", "--ch"]) == ["--choice"])
        #expect(complete([intentbus, "send", "--choice", ""]) == ["ask", "fail", "default"])
        #expect(complete([intentbus, "choices", "r"]) == ["reset"])
        #expect(complete([intentbus, "send", ""]) == ["AlphaIntent", "BetaIntent"])
        #expect(complete([intentbus, "send", "--timeout", "3", "B"]) == ["BetaIntent"])
        #expect(complete([intentbus, "choices", "set", "AlphaIntent", ""]) == ["alpha"])
        let zsh = runCommand(intentbus, ["completion", "zsh"])
        #expect(zsh.status == 0 && zsh.stdout.hasPrefix("#compdef intentbus"))
    }

    @Test("typos get 'did you mean' and exit 2; the suggestion is never a command that does not exist")
    func typos() {
        let command = runCommand(intentbus, ["sned", "EchoIntent"])
        #expect(command.status == 2)
        #expect(command.stderr.contains("unknown command \"sned\"; did you mean \"send\"?"), "\(command.stderr)")
        #expect(command.stderr.contains("Run `intentbus --help` for the commands."))
        let option = runCommand(intentbus, ["send", "EchoIntent", "--jsno"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("unknown option --jsno for send; did you mean --json?"), "\(option.stderr)")
        let help = runCommand(intentbus, ["plugins", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--endpoint EP"))
    }
}
