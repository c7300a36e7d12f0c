import Foundation
import IntentBusCore
import IntentBusProcess

/// The host's plugin processes, supervised from the router's poll loop
/// (docs/lifecycle.md, "Supervision"): each child has a pidfd (readable once it has
/// exited) and the read end of its output pipe, both polled with the sockets. No reaper
/// thread, no waitpid on a signal.
///
/// Children are started by the one spawner (`ChildProcess.spawn`, module
/// IntentBusProcess): a process group of their own (so a terminal's Ctrl-C reaches only
/// the host, which then stops its plugins in order), /dev/null for input, and one pipe
/// for stdout and stderr whose lines go to the host's log tagged with the plugin id.
/// A child is reaped only when its pidfd says it has exited, and it is signalled only
/// through its `ChildProcess`, which refuses once it is reaped (and uses the pidfd, which
/// never names a reused pid anyway).
///
/// When the kernel gives no pidfd (before Linux 5.3, or a seccomp filter that forbids
/// it) a child falls back to two threads: a waiter whose exit comes through the router's
/// mailbox, and a log reader.
///
/// Threading: the router thread only (the fallback threads touch only their own child).
final class ChildSupervisor {
    private enum Watch {
        case exit(pid_t)
        case output(pid_t)
    }

    private struct Child {
        let tag: Int
        let process: ChildProcess
        let pidfd: Int32
        var output: Int32
        let relay: PluginOutputRelay
        var lines = OutputLines()
    }

    private let logger: Logger
    /// Keeps each plugin's recent lines (`intentbus logs`), when given.
    private let logBook: PluginLogBook?
    private var children: [pid_t: Child] = [:]
    /// Children on fallback threads (no pidfd), until their exit comes through the mailbox.
    private var threaded: [pid_t: ChildProcess] = [:]
    private var watched: [Int32: Watch] = [:]
    /// The descriptors to poll, in a fixed order until `generation` changes.
    private(set) var fds: [Int32] = []
    /// Bumped whenever `fds` changes, so that the loop rebuilds its poller.
    private(set) var generation = 0
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(logger: Logger, logBook: PluginLogBook?) {
        self.logger = logger
        self.logBook = logBook
    }

    /// Starts a child; `tag` comes back with its exit. `fallback` is called (on another
    /// thread) for a child that could not get a pidfd.
    /// `executableDescriptor`: exec this open descriptor of `path` (checked by `sha256`),
    /// not whatever `path` names by then (`ProcessSpec.executableDescriptor`).
    func spawn(path: String, arguments: [String], environment: [String: String], limits: [ResourceLimit],
               executableDescriptor: Int32? = nil,
               label: String, tag: Int, fallback: @escaping @Sendable (pid_t, ExitStatus) -> Void) throws(SpawnError) -> pid_t {
        var spec = ProcessSpec(
            executable: path, arguments: arguments, environment: environment,
            standardInput: .null, standardOutput: .pipe, standardError: .sameAsOutput,
            limits: limits, ownProcessGroup: true)
        spec.executableDescriptor = executableDescriptor
        let process = try ChildProcess.spawn(spec)
        let pid = process.pid
        for failure in process.limitFailures {
            logger.warning("plugin \(label) (pid \(pid)): could not set its \(failure.limit.hostName): \(String(cString: strerror(failure.errno)))")
        }
        let output = process.standardOutput ?? -1
        let relay = PluginOutputRelay(logger: logger.with("plugin", label).with("pid", String(pid)),
                                      logBook: logBook, plugin: label, pid: pid)
        guard let pidfd = process.pidfd else {
            logger.debug("no pidfd for plugin \(label) (pid \(pid)): \(String(cString: strerror(process.pidfdErrno ?? 0))); a waiter thread watches it")
            threaded[pid] = process
            Self.watchWithThreads(process, output: output, relay: relay, label: label, onExit: fallback)
            return pid
        }
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        children[pid] = Child(tag: tag, process: process, pidfd: pidfd, output: output, relay: relay)
        watched[pidfd] = .exit(pid)
        watched[output] = .output(pid)
        changed()
        return pid
    }

    /// Signals a child that has not been reaped; a reaped one is never signalled.
    func signal(_ pid: pid_t, _ signal: Int32) {
        (children[pid]?.process ?? threaded[pid])?.signal(signal)
    }

    /// A fallback child's exit arrived through the mailbox.
    func threadedChildExited(_ pid: pid_t) { threaded.removeValue(forKey: pid) }

    /// `fd` was readable: relays output lines, or reaps an exited child and returns its
    /// tag, pid and status. A descriptor no longer watched (closed in this same round) is
    /// ignored; both kinds are non-blocking, so a stale wake costs nothing.
    func readable(_ fd: Int32) -> (tag: Int, pid: pid_t, status: ExitStatus)? {
        switch watched[fd] {
        case .exit(let pid)?:
            return reap(pid)
        case .output(let pid)?:
            readOutput(pid)
            return nil
        case nil:
            return nil
        }
    }

    private func reap(_ pid: pid_t) -> (tag: Int, pid: pid_t, status: ExitStatus)? {
        guard let child = children[pid], let status = child.process.reapIfExited() else { return nil }
        // What it wrote last, before its exit is handled (a bounded amount: a grandchild
        // may still be writing into the pipe).
        readOutput(pid, budget: 4 * Self.readBudget)
        guard var last = children.removeValue(forKey: pid) else { return nil }
        watched.removeValue(forKey: last.pidfd)  // closed with `last.process`, once dropped
        if last.output >= 0 {
            // The pipe may still be open in a grandchild; the host stops reading it.
            watched.removeValue(forKey: last.output)
            close(last.output)
        }
        last.lines.finish(to: last.relay)
        changed()
        return (last.tag, pid, status)
    }

    /// Bytes read from one child's pipe per poll round, at most: a plugin that writes
    /// without pause must not keep the router thread here (docs/reliability.md, "Plugin
    /// output"). The pipe stays readable, so the next round reads on.
    static let readBudget = 64 * 1_024

    private func readOutput(_ pid: pid_t, budget: Int = ChildSupervisor.readBudget) {
        guard var child = children[pid], child.output >= 0 else { return }
        var ended = false
        var left = budget
        let now = MonotonicClock.now()
        while left > 0 {
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { break }  // EAGAIN: all read for now
            if n == 0 {
                ended = true
                break
            }
            left -= n
            child.lines.append(buffer[0..<n], to: child.relay, now: now)
        }
        if ended {
            child.lines.finish(to: child.relay, now: now)
            watched.removeValue(forKey: child.output)
            close(child.output)
            child.output = -1
            changed()
        }
        children[pid] = child
    }

    /// Closes every descriptor left (the host is stopping).
    func closeAll() {
        for child in children.values where child.output >= 0 { close(child.output) }
        watched.removeAll()
        children.removeAll()  // their pidfds close with their `ChildProcess`
        changed()
    }

    private func changed() {
        fds = watched.keys.sorted()
        generation &+= 1
    }

    /// The fallback supervision: a thread that waits for the exit and a thread that
    /// reads the output.
    private static func watchWithThreads(_ process: ChildProcess, output: Int32, relay: PluginOutputRelay,
                                         label: String, onExit: @escaping @Sendable (pid_t, ExitStatus) -> Void) {
        let reader = Thread {
            var lines = OutputLines()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while output >= 0 {
                let n = read(output, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                lines.append(buffer[0..<n], to: relay)
            }
            lines.finish(to: relay)
            if output >= 0 { close(output) }
        }
        reader.name = "log-\(label)"
        reader.start()
        let waiter = Thread { onExit(process.pid, process.wait()) }
        waiter.name = "wait-\(label)"
        waiter.start()
    }
}

extension ResourceLimit {
    /// The manifest's name for the limit, for the host's warnings.
    fileprivate var hostName: String { resource == .cpuSeconds ? "cpu_limit" : "\(resource) limit" }
}
