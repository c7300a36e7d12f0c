import Foundation
import IntentBus
import Testing

/// Ctrl-C in `intentbus send`: a real CLI process gets SIGINT while a slow plugin handles
/// its request (docs/lifecycle.md, "Cancellation").
@Suite("Cancellation from the CLI, end to end", .serialized)
struct CancelEndToEndTests {
    /// A running `intentbus send` whose output is collected.
    final class RunningCommand {
        let process = Process()
        private let out = Pipe(), err = Pipe()
        private let stdout = LogBuffer(), stderr = LogBuffer()

        init(_ args: [String]) throws {
            process.executableURL = URL(fileURLWithPath: Products.path("intentbus"))
            process.arguments = args
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
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
        let host = try TestHost(plugins: testPlugin("alpha"), waitReady: ["alpha"])
        defer { host.stop() }
        let send = try RunningCommand(["send", "TestIntent", "sleep_ms=8000", "--json", "--endpoint", host.frontend])
        defer { send.reap() }
        try waitInFlight(host, "alpha")
        let started = Date()
        kill(send.process.processIdentifier, SIGINT)
        let status = send.exitStatus(within: 5)
        #expect(status == 130, "stdout: \(send.output) stderr: \(send.errors)")
        #expect(Date().timeIntervalSince(started) < 2, "it exits after the host's answer, not the handler's 8 s")
        let lines = send.output.split(separator: "\n")
        #expect(lines.count == 1, "exactly one final answer: \(send.output)")
        let answer = try JSON.parse(String(try #require(lines.first)))
        #expect(answer["error"]?["code"] == "cancelled", "\(answer.canonicalString)")
        #expect(send.errors.contains("cancelling"), "\(send.errors)")
        #expect(host.logEventually(contains: "saw its task cancelled"))
        #expect(try host.plugin("alpha")?["in_flight"] == 0)
    }

    @Test("a second Ctrl-C exits at once, even when no final answer comes (the host is frozen)")
    func secondCtrlCQuits() throws {
        let host = try TestHost(plugins: testPlugin("alpha"), waitReady: ["alpha"])
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
