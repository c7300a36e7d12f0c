import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// Ctrl-C in `intentbus send`: a real CLI process gets SIGINT while a slow plugin handles
/// its request (docs/lifecycle.md, "Cancellation").
@Suite("Cancellation from the CLI, end to end", .serialized)
struct CancelEndToEndTests {
    /// A running `intentbus send` whose output is collected.
    final class RunningCommand {
        let process = Process()
        private let out = Pipe(), err = Pipe()
        private let stdout = LogBuffer(), stderr = LogBuffer()

        /// Its standard input: open and empty, so that a terminal session (script(1))
        /// does not see an end of input.
        private let input = Pipe()

        init(_ args: [String], executable: String = Products.path("intentbus")) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = args
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            for (pipe, buffer) in [(out, stdout), (err, stderr)] {
                pipe.fileHandleForReading.readabilityHandler = { h in
                    let d = h.availableData
                    if !d.isEmpty { buffer.append(d) }
                }
            }
            try process.run()
        }

        /// Waits up to `seconds` for the process to exit; nil if it is still running.
        func exitStatus(within seconds: Double) -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            guard !process.isRunning else { return nil }
            process.waitUntilExit()
            usleep(50_000)
            return process.terminationStatus
        }

        var output: String { stdout.text }
        var errors: String { stderr.text }

        /// Ends and reaps the process if a check failed and left it running.
        func reap() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            out.fileHandleForReading.readabilityHandler = nil
            err.fileHandleForReading.readabilityHandler = nil
            try? input.fileHandleForWriting.close()
        }
    }

    /// Waits until the plugin holds one request.
    private func waitInFlight(_ host: TestHost, _ id: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try host.plugin(id)?["in_flight"]?.intValue == 1 { return }
            usleep(20_000)
        }
        throw TestFailure("the request never reached \(id):\n\(host.log)")
    }

    @Test("Ctrl-C sends CANCEL: the handler's task is cancelled, the CLI prints one `cancelled` and exits 130")
    func ctrlCCancels() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let send = try RunningCommand(["send", "TestIntent", "sleep_ms=8000", "--json", "--endpoint", host.frontend])
        defer { send.reap() }
        try interruptExpectingCancelled(send, host)
        #expect(host.logEventually(contains: "saw its task cancelled"))
        #expect(try host.plugin("alpha")?["in_flight"] == 0)
    }

    @Test("Ctrl-C in `say` sends CANCEL too: one `cancelled`, exit 130, nothing left open on the host")
    func ctrlCCancelsSay() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let added = runCommand(Products.path("intentbus"), ["shortcuts", "add", "take your time", "TestIntent", "sleep_ms:=8000",
                                                            "--endpoint", host.frontend])
        #expect(added.status == 0, "\(added.stderr)")
        let say = try RunningCommand(["say", "take your time", "--json", "--endpoint", host.frontend])
        defer { say.reap() }
        try interruptExpectingCancelled(say, host)
        #expect(try host.client().control("ib.status")["host"]?["open_exchanges"] == 0)
        #expect(try host.plugin("alpha")?["in_flight"] == 0)
    }

    /// Ctrl-C (SIGINT) to a `send` or `say` whose request is in flight at plugin alpha:
    /// exit 130 within 2 s (the host's answer, not the handler's 8 s), one final answer,
    /// `cancelled`, and "cancelling" said on stderr.
    private func interruptExpectingCancelled(_ command: RunningCommand, _ host: TestHost) throws {
        try waitInFlight(host, "alpha")
        let started = Date()
        kill(command.process.processIdentifier, SIGINT)
        let status = command.exitStatus(within: 5)
        #expect(status == 130, "stdout: \(command.output) stderr: \(command.errors)")
        #expect(Date().timeIntervalSince(started) < 2, "it exits after the host's answer, not the handler's 8 s")
        let lines = command.output.split(separator: "\n")
        #expect(lines.count == 1, "exactly one final answer: \(command.output)")
        let answer = try JSON.parse(String(try #require(lines.first)))
        #expect(answer["error"]?["code"] == "cancelled", "\(answer.canonicalString)")
        #expect(command.errors.contains("cancelling"), "\(command.errors)")
    }

    /// The pid of a descendant of `ancestor` running `name`, from /proc.
    private func descendant(of ancestor: pid_t, named name: String) -> pid_t? {
        var parents: [pid_t: pid_t] = [:], names: [pid_t: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            parents[pid] = parent
            names[pid] = String(stat[stat.index(after: open)..<close])
        }
        return names.first { pid, comm in
            guard comm == name else { return false }
            var up = parents[pid]
            while let p = up, p > 1 {
                if p == ancestor { return true }
                up = parents[p]
            }
            return false
        }?.key
    }

    @Test("Ctrl-C at a prompt on a terminal (a pty from script(1)): the prompt ends, one `cancelled`, exit 130")
    func ctrlCAtAPrompt() throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "script(1) (util-linux/bsdutils) gives the CLI a terminal")
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let line = "\(Products.path("intentbus")) send TestIntent ask=colour --endpoint \(host.frontend)"
        let session = try RunningCommand(["-qfec", line, "/dev/null"], executable: script)
        defer { session.reap() }
        let deadline = Date().addingTimeInterval(10)
        while !session.output.contains("What is colour?") && Date() < deadline { usleep(20_000) }
        #expect(session.output.contains("What is colour?"), "the prompt was asked on the terminal: \(session.output)")
        let cli = try #require(descendant(of: session.process.processIdentifier, named: "intentbus"))
        defer {
            // If it is still the CLI of this test (script may already be gone), end it.
            if let command = try? String(contentsOfFile: "/proc/\(cli)/cmdline", encoding: .utf8),
               command.contains("ask=colour"), command.contains(host.frontend) { kill(cli, SIGKILL) }
        }
        kill(cli, SIGINT)
        let status = session.exitStatus(within: 5)
        #expect(status == 130, "\(session.output)")
        #expect(session.output.contains("cancelling"), "\(session.output)")
        let cancelled = session.output.components(separatedBy: "cancelled: the client cancelled the request").count - 1
        #expect(cancelled == 1, "exactly one final answer: \(session.output)")
        #expect(try host.client().control("ib.status")["host"]?["open_exchanges"] == 0)
    }

    @Test("a prompt on a terminal notices that the host ended the request (conversation_expired) without a key pressed")
    func promptNoticesTheEnd() throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "script(1) (util-linux/bsdutils) gives the CLI a terminal")
        let host = try TestHost(TestManifest(.test("alpha"), host: .init(conversationTimeout: "1s")), waitReady: ["alpha"])
        defer { host.stop() }
        let line = "\(Products.path("intentbus")) send TestIntent ask=colour --endpoint \(host.frontend)"
        let session = try RunningCommand(["-qfec", line, "/dev/null"], executable: script)
        defer { session.reap() }
        let started = Date()
        let status = session.exitStatus(within: 8)
        #expect(status == 3, "a bus error, without waiting for a line: \(session.output)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(session.output.contains("What is colour?"), "\(session.output)")
        #expect(session.output.contains("conversation"), "the expiry is said: \(session.output)")
        #expect(try host.client().control("ib.status")["host"]?["open_exchanges"] == 0)
    }

    @Test("a German dialog's yes/no hint is German ([j/n]): the legacy prompt names its language")
    func chooserInTheDialogsLanguage() throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "script(1) (util-linux/bsdutils) gives the CLI a terminal")
        let host = try TestHost(TestManifest(.balance()), waitReady: ["balance"])
        defer { host.stop() }
        let line = "\(Products.path("intentbus")) send TopUpIntent amount=60 --endpoint \(host.frontend)"
        let session = try RunningCommand(["-qfec", line, "/dev/null"], executable: script)
        defer { session.reap() }
        let deadline = Date().addingTimeInterval(10)
        while !session.output.contains("aufladen?") && Date() < deadline { usleep(20_000) }
        usleep(100_000)
        #expect(session.output.contains("aufladen? [j/n]"), "\(session.output)")
        #expect(!session.output.contains("[y/n]"), "\(session.output)")
        if let cli = descendant(of: session.process.processIdentifier, named: "intentbus") { kill(cli, SIGINT) }
        _ = session.exitStatus(within: 5)
    }

    @Test("a second Ctrl-C exits at once, even when no final answer comes (the host is frozen)")
    func secondCtrlCQuits() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let send = try RunningCommand(["send", "TestIntent", "sleep_ms=8000", "--endpoint", host.frontend])
        defer { send.reap() }
        try waitInFlight(host, "alpha")
        kill(host.process.processIdentifier, SIGSTOP)
        defer { kill(host.process.processIdentifier, SIGCONT) }
        kill(send.process.processIdentifier, SIGINT)
        #expect(send.exitStatus(within: 0.7) == nil, "the first Ctrl-C waits for the final answer")
        kill(send.process.processIdentifier, SIGINT)
        #expect(send.exitStatus(within: 2) == 130, "\(send.errors)")
    }
}
