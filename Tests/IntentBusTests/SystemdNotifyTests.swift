import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// systemd `Type=notify` against a real host: the test owns the unix datagram socket that
/// systemd would, and reads what the host sends there.
@Suite("systemd notify", .serialized)
struct SystemdNotifyTests {
    /// A unix datagram socket bound to `name` (a path, or `@name` for the abstract namespace).
    final class NotifySocket {
        let fd: Int32
        init(_ name: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            let abstract = bytes.first == UInt8(ascii: "@")
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard rc == 0 else { throw TestFailure("bind \(name): errno \(errno)") }
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd) }

        /// Every datagram received within `seconds`, or until `stop` returns true.
        func receive(seconds: Double, until stop: ([String]) -> Bool = { _ in false }) -> [String] {
            var out: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && !stop(out) {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { out.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
            }
            return out
        }
    }

    /// Starts `intentbus host` with `environment` added; its output is kept in `log`.
    static func startHost(_ dir: TempDir, environment: [String: String]) throws -> (Process, LogBuffer) {
        let manifest = dir.write("plugins.yaml", TestManifest(.test("alpha")).yaml)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Products.path("intentbus"))
        process.arguments = ["host", "--config", manifest]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        let log = LogBuffer()
        pipe.fileHandleForReading.readabilityHandler = { log.append($0.availableData) }
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        return (process, log)
    }

    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    @Test("READY=1 once serving, WATCHDOG=1 every half WATCHDOG_USEC while it answers, STOPPING=1 on SIGTERM")
    func readyWatchdogStopping() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let listener = try NotifySocket("\(dir.path)/notify.sock")
        let (host, log) = try Self.startHost(dir, environment: ["NOTIFY_SOCKET": "\(dir.path)/notify.sock",
                                                                "WATCHDOG_USEC": "400000"])
        defer { Self.stop(host) }
        let first = listener.receive(seconds: 20) { !$0.isEmpty }
        #expect(first.first?.hasPrefix("READY=1\nSTATUS=serving 1 plugins on ipc://") == true, "\(first)\n\(log.text)")
        // A request is answered once READY=1 has come.
        let client = try IntentClient(endpoint: "ipc://\(dir.path)/state/frontend.sock")
        #expect(try client.send("TestIntent", parameters: ["x": 1]) { _ in nil }.succeeded)
        let pings = listener.receive(seconds: 1.2)
        #expect(pings.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(pings)")
        #expect(pings.allSatisfy { $0 == "WATCHDOG=1" }, "\(pings)")
        kill(host.processIdentifier, SIGTERM)
        let last = listener.receive(seconds: 10) { $0.contains { $0.hasPrefix("STOPPING=1") } }
        #expect(last.contains("STOPPING=1\nSTATUS=stopping"), "\(last)")
        host.waitUntilExit()
        #expect(host.terminationStatus == 0)
    }

    @Test("an abstract NOTIFY_SOCKET (@name) works; a bad WATCHDOG_USEC is refused with a warning, no pings")
    func abstractSocketAndBadWatchdog() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let name = "@intentbus-test-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try NotifySocket(name)
        let (host, log) = try Self.startHost(dir, environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "99999999999999999"])
        defer { Self.stop(host) }
        let got = listener.receive(seconds: 20) { !$0.isEmpty }
        #expect(got.first?.hasPrefix("READY=1") == true, "\(got)\n\(log.text)")
        #expect(listener.receive(seconds: 0.6).isEmpty, "no watchdog pings without a valid WATCHDOG_USEC")
        #expect(log.text.contains("WATCHDOG_USEC=99999999999999999 is not a number of microseconds within 1…86400000000"),
                "\(log.text)")
    }

    @Test("WATCHDOG_PID naming another process means the pings are not for this one")
    func watchdogForAnotherPid() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let listener = try NotifySocket("\(dir.path)/n.sock")
        let (host, log) = try Self.startHost(dir, environment: ["NOTIFY_SOCKET": "\(dir.path)/n.sock",
                                                                "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        defer { Self.stop(host) }
        let got = listener.receive(seconds: 20) { !$0.isEmpty }
        #expect(got.first?.hasPrefix("READY=1") == true, "\(got)\n\(log.text)")
        #expect(listener.receive(seconds: 0.6).isEmpty)
    }

    @Test("contrib/intentbus.service: Type=notify, a watchdog, flags the host accepts; systemd-analyze verify passes")
    func unitFile() throws {
        let unit = try String(contentsOfFile: "\(Products.root)/contrib/intentbus.service", encoding: .utf8)
        let lines = unit.split(separator: "\n").map(String.init)
        #expect(lines.contains("Type=notify"))
        #expect(lines.contains { $0.hasPrefix("WatchdogSec=") })
        #expect(lines.contains("KillMode=mixed"))
        // Connections are descriptors: systemd's default soft limit of 1024 is too few
        // (docs/reliability.md, "File descriptors").
        #expect(lines.contains("LimitNOFILE=65536"))
        let exec = try #require(lines.first { $0.hasPrefix("ExecStart=") })
        var words = exec.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        #expect(words.first == "/usr/local/bin/intentbus")
        words.removeFirst()
        // The same arguments, with a manifest that does not exist: a manifest error (6), not
        // a usage error (2), shows that every flag in the unit is one the host takes.
        let dir = TempDir()
        defer { dir.remove() }
        if let config = words.firstIndex(of: "--config") { words[config + 1] = "\(dir.path)/missing.yaml" }
        let r = runCommand(Products.path("intentbus"), words)
        #expect(r.status == 6, "\(r.stderr)")
        let analyze = "/usr/bin/systemd-analyze"
        if FileManager.default.isExecutableFile(atPath: analyze) {
            let local = dir.write("intentbus.service", unit.replacingOccurrences(of: "/usr/local/bin/intentbus",
                                                                                  with: Products.path("intentbus")))
            let verify = runCommand(analyze, ["verify", local])
            #expect(verify.status == 0, "\(verify.stderr)")
        }
    }
}
