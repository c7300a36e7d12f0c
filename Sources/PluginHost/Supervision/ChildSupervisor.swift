import Foundation
import IntentBus
internal import CLinuxSupport

/// The host's plugin processes, supervised from the router's poll loop
/// (docs/lifecycle.md, "Supervision"): each child has a pidfd (readable once it has
/// exited) and the read end of its output pipe, both polled with the sockets. No reaper
/// thread, no waitpid on a signal.
///
/// A child is reaped (waitpid) only when its pidfd says it has exited, and it is
/// signalled only through its pidfd: once reaped, its entry is gone and nothing can
/// signal it, and a pidfd never names a reused pid anyway.
///
/// When the kernel gives no pidfd (before Linux 5.3, or a seccomp filter that forbids
/// it) a child falls back to the launcher's threads: a waiter whose exit comes through
/// the router's mailbox, and a log reader.
///
/// Threading: the router thread only.
final class ChildSupervisor {
    private enum Watch {
        case exit(pid_t)
        case output(pid_t)
    }

    private struct Child {
        let tag: Int
        let pidfd: Int32
        var output: Int32
        let relay: PluginOutputRelay
        var pending = Data()
    }

    private let launcher: ChildProcessLauncher
    private let logger: Logger
    private var children: [pid_t: Child] = [:]
    /// Children on the launcher's threads (no pidfd): signalled by pid until their exit
    /// comes through the mailbox.
    private var threaded: Set<pid_t> = []
    private var watched: [Int32: Watch] = [:]
    /// The descriptors to poll, in a fixed order until `generation` changes.
    private(set) var fds: [Int32] = []
    /// Bumped whenever `fds` changes, so that the loop rebuilds its poller.
    private(set) var generation = 0
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(launcher: ChildProcessLauncher, logger: Logger) {
        self.launcher = launcher
        self.logger = logger
    }

    /// Starts a child; `tag` comes back with its exit. `fallback` is called (on another
    /// thread) for a child that could not get a pidfd.
    func spawn(path: String, arguments: [String], environment: [String: String], label: String, tag: Int,
               fallback: @escaping @Sendable (pid_t, ExitStatus) -> Void) throws(SpawnError) -> pid_t {
        let (pid, output) = try launcher.startProcess(path: path, arguments: arguments, environment: environment)
        let pidfd = ib_pidfd_open(pid)
        guard pidfd >= 0 else {
            logger.debug("no pidfd for plugin \(label) (pid \(pid)): \(String(cString: strerror(errno))); a waiter thread watches it")
            threaded.insert(pid)
            launcher.watchWithThreads(pid: pid, output: output, label: label) { pid, status in fallback(pid, status) }
            return pid
        }
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        children[pid] = Child(tag: tag, pidfd: pidfd, output: output, relay: launcher.outputRelay(label: label, pid: pid))
        watched[pidfd] = .exit(pid)
        watched[output] = .output(pid)
        changed()
        return pid
    }

    /// Signals a child that has not been reaped; a reaped one is never signalled.
    func signal(_ pid: pid_t, _ signal: Int32) {
        if let child = children[pid] {
            if child.pidfd >= 0 { _ = ib_pidfd_send_signal(child.pidfd, signal) }
        } else if threaded.contains(pid) {
            launcher.signal(pid, signal)
        }
    }

    /// A fallback child's exit arrived through the mailbox.
    func threadedChildExited(_ pid: pid_t) { threaded.remove(pid) }

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
        guard let child = children[pid] else { return nil }
        var status: Int32 = 0
        var rc: pid_t
        repeat { rc = waitpid(pid, &status, WNOHANG) } while rc < 0 && errno == EINTR
        if rc == 0 { return nil }  // not exited after all
        if rc < 0 { status = 0x7f }  // already reaped by someone else: report it as ended
        readOutput(pid)  // what it wrote last, before its exit is handled
        let last = children.removeValue(forKey: pid) ?? child
        watched.removeValue(forKey: last.pidfd)
        close(last.pidfd)
        if last.output >= 0 {
            // The pipe may still be open in a grandchild; the host stops reading it.
            watched.removeValue(forKey: last.output)
            close(last.output)
        }
        if !last.pending.isEmpty { last.relay.relay(String(decoding: last.pending, as: UTF8.self)) }
        changed()
        return (last.tag, pid, ExitStatus(waitStatus: status))
    }

    private func readOutput(_ pid: pid_t) {
        guard var child = children[pid], child.output >= 0 else { return }
        var ended = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { break }  // EAGAIN: all read for now
            if n == 0 {
                ended = true
                break
            }
            child.pending.append(contentsOf: buffer[0..<n])
            while let newline = child.pending.firstIndex(of: 10) {
                let line = String(decoding: child.pending[child.pending.startIndex..<newline], as: UTF8.self)
                child.pending.removeSubrange(child.pending.startIndex...newline)
                if !line.isEmpty { child.relay.relay(line) }
            }
        }
        if ended {
            if !child.pending.isEmpty { child.relay.relay(String(decoding: child.pending, as: UTF8.self)) }
            child.pending.removeAll()
            watched.removeValue(forKey: child.output)
            close(child.output)
            child.output = -1
            changed()
        }
        children[pid] = child
    }

    /// Closes every descriptor left (the host is stopping).
    func closeAll() {
        for fd in watched.keys { close(fd) }
        watched.removeAll()
        children.removeAll()
        changed()
    }

    private func changed() {
        fds = watched.keys.sorted()
        generation &+= 1
    }
}
