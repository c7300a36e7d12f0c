import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Logs: never blocking on a stalled reader, JSON lines, and what the host keeps per plugin.
@Suite("Logging", .serialized)
struct LoggingTests {
    let intentbus = Products.path("intentbus")

    /// Reads whatever is in `fd` until `text` shows up or `seconds` pass.
    static func read(_ fd: Int32, until text: String, seconds: Double) -> String {
        var out = Data()
        let deadline = Date().addingTimeInterval(seconds)
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            let n = Foundation.read(fd, &buffer, buffer.count)
            if n > 0 {
                out.append(contentsOf: buffer[0..<n])
                if String(decoding: out, as: UTF8.self).contains(text) { break }
            } else {
                usleep(10_000)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test("LogWriter: a reader that never reads blocks nobody; dropped lines are counted and reported once it reads")
    func writerNeverBlocks() throws {
        var raw: [Int32] = [0, 0]
        #expect(pipe(&raw) == 0)
        // High descriptor numbers: a double close elsewhere in this test process (other
        // suites run in parallel) hits recently freed low numbers, never these.
        let fds = raw.map { fcntl($0, F_DUPFD_CLOEXEC, 900) }
        raw.forEach { close($0) }
        let writer = LogWriter(fd: fds[1], maxLines: 100, maxBytes: 1 << 20)
        // Closed only once the writer is idle: closing the read end under a blocked
        // writer would raise SIGPIPE in the test process.
        defer { if writer.flush(timeout: 1) { close(fds[1]); close(fds[0]) } }
        let line = String(repeating: "x", count: 1_000)
        let started = Date()
        for i in 0..<2_000 { writer.write("\(i) \(line)") }
        #expect(Date().timeIntervalSince(started) < 1.0, "writes must not wait for the reader")
        // Lines beyond the queue (100) and what the pipe and the writer's batch hold were
        // dropped and counted. How many exactly depends on how the writer's batches fell
        // (runs of the whole suite read from 935 to 1,800 here), so the count is only
        // required to be there; the notice must say so once the reader reads.
        let countedNow = writer.droppedCount
        #expect(countedNow > 0)
        // Read until everything queued is written (the notice may come in any batch).
        var text = Self.read(fds[0], until: "dropped", seconds: 10)
        let deadline = Date().addingTimeInterval(10)
        while !writer.flush(timeout: 0.05), Date() < deadline { text += Self.read(fds[0], until: "\u{0}", seconds: 0.05) }
        #expect(writer.flush(timeout: 1))
        #expect(text.contains("warning [log] dropped "), "\(text.suffix(300))")
        let reported = text.components(separatedBy: "warning [log] dropped ").dropFirst()
            .compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +)
        #expect(reported > 0, "the notices report the dropped lines (\(countedNow) counted right after the writes)")
        #expect(text.hasPrefix("0 xxx"), "the oldest lines are kept, not the newest")
    }

    @Test("a host whose stderr pipe nobody reads keeps answering requests; the log says how many lines it dropped")
    func stalledStderr() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", TestManifest(.test("alpha")).yaml)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: intentbus)
        process.arguments = ["host", "--config", manifest, "--log-level", "debug"]
        let output = Pipe()   // never read until the end of the test
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let frontend = "ipc://\(dir.path)/state/frontend.sock"
        let client = try IntentClient(endpoint: frontend)
        client.hostSlack = .seconds(1)
        let deadline = Date().addingTimeInterval(20)
        while (try? client.control("ib.ping", wait: .milliseconds(300))) == nil, Date() < deadline { usleep(50_000) }
        // Every unknown intent is logged on the router thread; with long names the 64 KiB
        // pipe fills after a hundred requests and the writer's queue after a few thousand.
        let name = "NoSuch" + String(repeating: "Intent", count: 30)
        var answered = 0, otherErrors: [String] = []
        var options = RequestOptions()
        options.timeout = .seconds(2)
        for i in 0..<5_000 {
            do {
                _ = try client.send("\(name)\(i)", options: options) { _ in nil }
            } catch .bus(let e) where e.code == .unknownIntent {
                answered += 1
            } catch {
                otherErrors.append("\(error)")
                break
            }
        }
        #expect(answered == 5_000, "after \(answered) answers: \(otherErrors)")
        #expect(try client.send("TestIntent", parameters: ["n": 1], options: options) { _ in nil }.body["params"] == ["n": 1])
        let text = Self.read(output.fileHandleForReading.fileDescriptor, until: "log lines: the log's reader was too slow",
                             seconds: 20)
        #expect(text.contains("warning [log] dropped "), "\(text.suffix(500))")
        kill(process.processIdentifier, SIGTERM)
    }

    @Test("--log-format json: one object a line, ISO 8601 time, plugin and pid, request ids, the full command")
    func jsonLines() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", """
        host:
          state_dir: state
        plugins:
          - id: talker
            exec: [/bin/sh, -c, "echo 'hello from the plugin' >&2; exec \(Products.path("plugin-echo"))"]
            IntentsSupported: [EchoIntent]
        """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: intentbus)
        process.arguments = ["host", "--config", manifest, "--log-format", "json"]
        let output = Pipe()
        let buffer = LogBuffer()
        output.fileHandleForReading.readabilityHandler = { h in buffer.append(h.availableData) }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
        }
        let client = try IntentClient(endpoint: "ipc://\(dir.path)/state/frontend.sock")
        client.hostSlack = .zero
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !buffer.text.contains("is ready") { usleep(50_000) }
        _ = try? client.send("NoSuchIntent") { _ in nil }
        while Date() < deadline, !buffer.text.contains("NoSuchIntent") { usleep(20_000) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        usleep(100_000)
        let lines = buffer.text.split(separator: "\n").map(String.init)
        #expect(lines.count >= 4)
        let objects = lines.compactMap { try? JSON.parse($0) }
        #expect(objects.count == lines.count, "every line is JSON: \(lines.filter { (try? JSON.parse($0)) == nil })")
        let iso = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        #expect(objects.allSatisfy { ($0["time"]?.stringValue).map { $0.wholeMatch(of: iso) != nil } == true })
        #expect(objects.allSatisfy { ["debug", "info", "warning", "error"].contains($0["level"]?.stringValue ?? "") })
        let started = objects.first { $0["message"]?.stringValue?.hasPrefix("started plugin talker") == true }
        #expect(started?["message"]?.stringValue?.contains("/bin/sh -c 'echo '") == true, "the whole command: \(String(describing: started))")
        let relayed = objects.first { $0["message"]?.stringValue == "| hello from the plugin" }
        #expect(relayed?["plugin"] == "talker")
        #expect(relayed?["pid"]?.intValue != nil)
        let rejected = objects.first { $0["message"]?.stringValue?.contains("NoSuchIntent") == true }
        #expect(rejected?["request"]?.stringValue?.isEmpty == false, "\(String(describing: rejected))")
    }

    @Test("a plugin that fails at start says why in `plugins` and `logs`; logs checks its arguments")
    func failingPluginSaysWhy() throws {
        // exec as a list (a shell line): a shape the builder does not write.
        let host = try TestHost(yaml: """
        host:
          state_dir: state
        plugins:
          - id: broken
            exec: [/bin/sh, -c, "echo 'cannot read /etc/broken.conf' >&2; exit 2"]
            IntentsSupported: [BrokenIntent]
        """)
        defer { host.stop() }
        try host.waitForPlugin("broken", state: "failed", seconds: 30)
        let ep = ["--endpoint", host.frontend]
        let plugins = runCommand(intentbus, ["plugins"] + ep)
        #expect(plugins.status == 0)
        #expect(plugins.stdout.contains("! broken: crashed 5 times"), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("    | cannot read /etc/broken.conf"), "\(plugins.stdout)")
        let json = try JSON.parse(runCommand(intentbus, ["plugins", "--json"] + ep).stdout)
        let entry = json["plugins"]?.arrayValue?.first { $0["id"] == "broken" }
        #expect(entry?["recent_output"]?.arrayValue?.last?["text"] == "cannot read /etc/broken.conf")
        let logs = runCommand(intentbus, ["logs", "broken", "--lines", "2"] + ep)
        #expect(logs.status == 0, "\(logs.stderr)")
        #expect(logs.stdout.contains("(3 earlier lines not shown)"), "\(logs.stdout)")
        #expect(logs.stdout.split(separator: "\n").filter { $0.hasSuffix("] cannot read /etc/broken.conf") }.count == 2)
        let unknown = runCommand(intentbus, ["logs", "nosuch"] + ep)
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("unknown_plugin"))
        let zero = runCommand(intentbus, ["logs", "broken", "--lines", "0"] + ep)
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--lines: takes a whole number within 1…1000, got 0"))
    }
}
