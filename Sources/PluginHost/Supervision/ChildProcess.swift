import Foundation
import IntentBus
internal import CLinuxSupport

/// Why a plugin process could not be started.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let errno: Int32
    /// Why, when it is not an errno (a `sha256` mismatch).
    public var reason: String?
    public init(path: String, errno: Int32, reason: String? = nil) {
        self.path = path
        self.errno = errno
        self.reason = reason
    }
    public var description: String {
        if let reason { return reason }
        return switch errno {
        case ENOENT: "executable not found: \(path)"
        case EACCES: "executable is not executable (permission denied): \(path)"
        case ENOEXEC: "not an executable file: \(path)"
        default: "could not start \(path): \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}

/// How a child process ended, as `waitpid` reported it.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    init(waitStatus s: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift can't import.
        if s & 0x7f == 0 { self = .exited((s >> 8) & 0xff) } else { self = .signalled(s & 0x7f) }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let sig): "was killed by signal \(sig)\(ExitStatus.signalName(sig).map { " (\($0))" } ?? "")"
        }
    }

    /// The JSON form used in `plugin_crashed` details.
    public var json: JSON {
        switch self {
        case .exited(let code): ["code": .int(Int64(code))]
        case .signalled(let sig): ["signal": .int(Int64(sig))]
        }
    }

    static func signalName(_ sig: Int32) -> String? {
        switch sig {
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGSEGV: "SIGSEGV"
        case SIGABRT: "SIGABRT"
        case SIGILL: "SIGILL"
        case SIGBUS: "SIGBUS"
        case SIGTRAP: "SIGTRAP"
        case SIGINT: "SIGINT"
        case SIGXCPU: "SIGXCPU"
        default: nil
        }
    }
}

/// Starts plugin processes and watches them.
///
/// Each child gets its own process group (so a terminal's Ctrl-C reaches only the host,
/// which then stops its plugins in order), a pipe for stdout and stderr whose lines go to
/// the host's log tagged with the plugin id, and a thread that waits for its exit.
///
/// Thread-safe: `spawn` and `signal` may be called from any thread; `onExit` runs on
/// the child's waiter thread.
public final class ChildProcessLauncher: Sendable {
    private let logger: Logger
    /// Keeps each plugin's recent lines (`intentbus logs`), when given.
    private let logBook: PluginLogBook?

    public init(logger: Logger, logBook: PluginLogBook? = nil) {
        self.logger = logger
        self.logBook = logBook
    }

    /// Starts `path` with `arguments` and `environment`; calls `onExit` once it ends.
    public func spawn(path: String, arguments: [String], environment: [String: String], label: String,
                      onExit: @escaping @Sendable (pid_t, ExitStatus) -> Void) throws(SpawnError) -> pid_t {
        let (childPid, readEnd) = try startProcess(path: path, arguments: arguments, environment: environment)
        watchWithThreads(pid: childPid, output: readEnd, label: label, onExit: onExit)
        return childPid
    }

    /// Starts the process, its stdout and stderr on a pipe: the pid and the pipe's read end.
    func startProcess(path: String, arguments: [String],
                      environment: [String: String]) throws(SpawnError) -> (pid: pid_t, output: Int32) {
        var fds: [Int32] = [-1, -1]
        guard ib_pipe_cloexec(&fds) == 0 else { throw SpawnError(path: path, errno: Foundation.errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setpgroup(&attr, 0)
        // Children start with default signal handling and nothing blocked.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = [path] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }.sorted()
        var pid: pid_t = 0
        let rc = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnv in posix_spawn(&pid, path, &actions, &attr, cArgv, cEnv) }
        }
        close(writeEnd)
        if rc != 0 {
            close(readEnd)
            throw SpawnError(path: path, errno: rc)
        }
        return (pid, readEnd)
    }

    /// The fallback supervision, and the one for users of `spawn`: a thread that waits for
    /// the exit and a thread that reads the output.
    func watchWithThreads(pid childPid: pid_t, output readEnd: Int32, label: String,
                          onExit: @escaping @Sendable (pid_t, ExitStatus) -> Void) {
        startLogReader(fd: readEnd, label: label, pid: childPid)
        let waiter = Thread {
            var status: Int32 = 0
            while waitpid(childPid, &status, 0) < 0 {
                if Foundation.errno != EINTR { status = 0x7f; break }
            }
            onExit(childPid, ExitStatus(waitStatus: status))
        }
        waiter.name = "wait-\(label)"
        waiter.start()
    }

    /// The relay for a child's output lines.
    func outputRelay(label: String, pid: pid_t) -> PluginOutputRelay {
        PluginOutputRelay(logger: logger.with("plugin", label).with("pid", String(pid)),
                          logBook: logBook, plugin: label, pid: pid)
    }

    /// Sends `signal` to the child `pid` (only a pid this launcher started).
    public func signal(_ pid: pid_t, _ signal: Int32) {
        if pid > 0 { kill(pid, signal) }
    }

    private func startLogReader(fd: Int32, label: String, pid: pid_t) {
        let relay = outputRelay(label: label, pid: pid)
        let reader = Thread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && Foundation.errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: buffer[0..<n])
                while let nl = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...nl)
                    if !line.isEmpty { relay.relay(line) }
                }
            }
            if !pending.isEmpty { relay.relay(String(decoding: pending, as: UTF8.self)) }
            close(fd)
        }
        reader.name = "log-\(label)"
        reader.start()
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let cStrings = strings.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    return body(cStrings + [nil])
}
