import Foundation
import IntentBus

/// A process the benchmark started. Stopped and reaped by pid only.
final class BenchChild: @unchecked Sendable {
    // @unchecked: `reaped` is only touched under `lock`; pid and label are immutable.
    let pid: pid_t
    let label: String
    private let lock = Lock()
    private var reaped = false

    init(pid: pid_t, label: String) {
        self.pid = pid
        self.label = label
    }

    /// True while the process has not exited (reaps it when it has).
    var isRunning: Bool {
        lock.withLock {
            if reaped { return false }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { reaped = true }
            return !reaped
        }
    }

    /// SIGTERM, up to `grace` seconds to exit, then SIGKILL; always reaps. Safe to call twice.
    func stop(grace: Double = 3) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = MonotonicClock.now() + UInt64(grace * 1e9)
        while isRunning && MonotonicClock.now() < deadline { usleep(5_000) }
        lock.withLock {
            guard !reaped else { return }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            reaped = true
        }
    }

    /// The process's peak resident set size (VmHWM in /proc/PID/status), in kB.
    var peakRSSKilobytes: Int? { Self.statusField("VmHWM", pid: pid) }
    /// The process's current resident set size (VmRSS), in kB.
    var rssKilobytes: Int? { Self.statusField("VmRSS", pid: pid) }

    /// CPU time (user + system) a process has used so far, in seconds; nil once it is gone.
    static func cpuSeconds(pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": field 3 is the state; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The pids of a process's children (any thread's), from /proc.
    static func childPids(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    static func statusField(_ name: String, pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            // "VmHWM:\t   12345 kB"
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

/// Every process the benchmark started, so that all of them are stopped on the way out,
/// also after a failure or a Ctrl-C.
final class ChildRegistry: @unchecked Sendable {
    // @unchecked: `children` is only touched under `lock`.
    private let lock = Lock()
    private var children: [BenchChild] = []
    private var signalSources: [any DispatchSourceSignal] = []

    /// Starts `path` with `arguments`, its output appended to `logPath`.
    ///
    /// - Parameter dieWithUs: run it under `setpriv --pdeathsig SIGTERM`, so that it
    ///   stops even if this process is killed before it can clean up. Off where the
    ///   extra exec would distort a timing (cold start).
    func spawn(_ path: String, _ arguments: [String], label: String, logPath: String,
               environment: [String: String]? = nil, dieWithUs: Bool = true) throws -> BenchChild {
        var argv = [path] + arguments
        var program = path
        let setpriv = "/usr/bin/setpriv"
        if dieWithUs && FileManager.default.isExecutableFile(atPath: setpriv) {
            argv = [setpriv, "--pdeathsig", "TERM", "--"] + argv
            program = setpriv
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup($0) } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        // The spawn happens on the calling (main) thread: PR_SET_PDEATHSIG follows the
        // parent *thread*, so a helper thread that exits would take the child with it.
        let rc = posix_spawn(&pid, program, &actions, nil, cArgv, cEnv)
        guard rc == 0 else { throw BenchFailure("could not start \(path): \(String(cString: strerror(rc)))") }
        let child = BenchChild(pid: pid, label: label)
        lock.withLock { children.append(child) }
        return child
    }

    /// Stops every child still running, newest first (hosts before what they depend on).
    func stopAll() {
        let all = lock.withLock { children.reversed() }
        for child in all { child.stop() }
    }

    /// Stops the children when this process gets SIGINT or SIGTERM, then exits.
    func stopOnSignals() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in
                FileHandle.standardError.write(Data("intentbus-bench: interrupted; stopping what it started\n".utf8))
                stopAll()
                exit(130)
            }
            source.resume()
            lock.withLock { signalSources.append(source) }
        }
    }
}

/// A benchmark step that could not run.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
