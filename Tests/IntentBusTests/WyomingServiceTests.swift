import Foundation
import IntentBus
@testable import IntentBusManifest
@testable import PluginHost
import Testing

/// `WyomingService` (Supervision/WyomingService.swift) with real child processes: a
/// `/bin/sh` script stands in for the Python service (it writes the line the service
/// writes once it serves; the options the host appends become its `$0`, `$1`, …).
/// test_e2e_wyoming_host.py runs the real service under a real host.
@Suite("Wyoming service supervision", .serialized)
struct WyomingServiceTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    private func settings(_ script: String, uri: String = "tcp://127.0.0.1:1") -> WyomingServiceSettings {
        WyomingServiceSettings(uri: uri, command: PluginExec(path: "/bin/sh", arguments: ["-c", script]),
                               commandOrigin: "test", endpoint: "ipc:///nonexistent/frontend.sock")
    }

    private func service() -> (WyomingService, Lines) {
        let lines = Lines()
        return (WyomingService(logger: Logger(label: "host", format: .text, sink: { lines.append($0) })), lines)
    }

    /// Waits up to 20 s for `status` to satisfy `check`; the last status.
    @discardableResult
    private func waitStatus(_ service: WyomingService, _ what: String,
                            _ check: ([String: JSON]) -> Bool) -> [String: JSON] {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let s = service.status?.objectValue, check(s) { return s }
            usleep(20_000)
        }
        Issue.record("the service did not become \(what): \(String(describing: service.status))")
        return service.status?.objectValue ?? [:]
    }

    private static func alive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    @Test("the child runs, is started again after a SIGKILL, stops when the section goes; its lines are tagged")
    func restartAndRemove() throws {
        let (service, lines) = service()
        service.update(settings("echo 'intentbus-wyoming: serving here'; echo second line >&2; exec sleep 60"))
        let first = waitStatus(service, "running") { $0["state"]?.stringValue == "running" }
        let pid = try #require(first["pid"]?.intValue.map { pid_t($0) })
        #expect(first["restarts"]?.intValue == 0 && first["uri"]?.stringValue == "tcp://127.0.0.1:1")
        kill(pid, SIGKILL)
        let second = waitStatus(service, "running again") {
            $0["state"]?.stringValue == "running" && $0["pid"]?.intValue != Int64(pid)
        }
        #expect(second["restarts"]?.intValue == 1)
        #expect(second["last_exit"]?.stringValue == "was killed by signal 9 (SIGKILL)")
        let tagged = lines.all.filter { $0.contains("service=wyoming pid=\(pid) | second line") }
        #expect(tagged.count == 1, "\(lines.all)")
        #expect(lines.all.contains { $0.contains("starting it again in 0.5 s") })
        let newPid = try #require(second["pid"]?.intValue.map { pid_t($0) })
        service.update(nil)
        let deadline = Date().addingTimeInterval(10)
        while service.status != nil, Date() < deadline { usleep(20_000) }
        #expect(service.status == nil)  // no section: no entry
        #expect(!Self.alive(newPid))
        service.stop()
    }

    @Test("a child that ignores SIGTERM gets SIGKILL after the grace, and stop returns once it is reaped")
    func sigkillAfterGrace() throws {
        let (service, lines) = service()
        service.update(settings("trap '' TERM; echo 'intentbus-wyoming: serving here'; while :; do sleep 0.2; done"))
        let running = waitStatus(service, "running") { $0["state"]?.stringValue == "running" }
        let pid = try #require(running["pid"]?.intValue.map { pid_t($0) })
        let started = Date()
        service.stop()
        let took = Date().timeIntervalSince(started)
        #expect(took >= 4.9 && took < 20, "stop took \(took) s")
        #expect(!Self.alive(pid))
        #expect(lines.all.contains { $0.contains("did not stop within 5 s of SIGTERM; SIGKILL") }, "\(lines.all)")
        #expect(service.status?["state"]?.stringValue == "stopped")
        service.stop()  // twice: nothing more
    }

    @Test("a changed section restarts the child with the new options; a command that can't start is retried")
    func changeAndUnstartable() throws {
        let (service, lines) = service()
        service.update(settings("echo \"intentbus-wyoming: serving $1\"; exec sleep 60", uri: "tcp://127.0.0.1:1"))
        let first = waitStatus(service, "running") { $0["state"]?.stringValue == "running" }
        service.update(settings("echo \"intentbus-wyoming: serving $1\"; exec sleep 60", uri: "tcp://127.0.0.1:2"))
        let moved = waitStatus(service, "moved") {
            $0["state"]?.stringValue == "running" && $0["uri"]?.stringValue == "tcp://127.0.0.1:2"
        }
        #expect(moved["restarts"]?.intValue == 0 && moved["pid"] != first["pid"])
        #expect(lines.all.contains { $0.hasSuffix("| intentbus-wyoming: serving tcp://127.0.0.1:2") }, "\(lines.all)")
        var broken = settings("")
        broken.command = PluginExec(path: "/nonexistent/python", arguments: [])
        service.update(broken)
        let failing = waitStatus(service, "failing") { ($0["last_exit"]?.stringValue ?? "").hasPrefix("could not start") }
        #expect(failing["state"]?.stringValue == "restarting" && failing["pid"] == nil)
        service.stop()
    }

    @Test("the backoff: 0.5 s, doubling, at most 30 s")
    func backoff() {
        #expect((1...8).map { WyomingService.backoff($0) / 1_000_000 } == [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])
        #expect(WyomingService.backoff(10_000) == 30_000_000_000)
    }
}
