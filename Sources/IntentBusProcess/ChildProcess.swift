import Foundation
import IntentBusCore
internal import CLinuxSupport

/// A process this one started (`ChildProcess.spawn`), until it has been reaped.
///
/// - Signals go through its pidfd when the kernel gave one (Linux 5.3 and later, no
///   seccomp filter against it), else by pid; either way only until it is reaped, so a
///   pid the kernel has handed to another process is never signalled.
/// - It is reaped (`waitpid` on its pid, never on -1) by whichever of `reapIfExited`,
///   `wait` or `stop` first sees it exit; its status is kept and every later call
///   returns it.
/// - Ownership: the pidfd belongs to this object (closed when it is freed, so that a
///   poll loop may keep it in its set until it drops the object); the parent's pipe ends
///   (`standardInput`, `standardOutput`, `standardError`) belong to the caller, who
///   reads, writes and closes them.
///
/// Thread-safe: every method may be called from any thread. `wait` and `stop` block the
/// calling thread, never while holding the lock, so a `signal` from another thread goes
/// through while they wait.
package final class ChildProcess: @unchecked Sendable {
    // @unchecked: `status` is only touched under `lock`; everything else is immutable.
    package let pid: pid_t
    /// The executable it was started from (for messages).
    package let executable: String
    /// Readable once the process has exited; nil when the kernel gave none.
    package let pidfd: Int32?
    /// Why there is no pidfd (the errno of pidfd_open), when there is none.
    package let pidfdErrno: Int32?
    /// The parent's end of the child's standard input, when it is `.pipe`.
    package let standardInput: Int32?
    /// The parent's end of the child's standard output, when it is `.pipe`.
    package let standardOutput: Int32?
    /// The parent's end of the child's standard error, when it is `.pipe`.
    package let standardError: Int32?
    /// The limits the kernel refused to set; the child runs without them.
    package let limitFailures: [ResourceLimitFailure]

    private let lock = Lock()
    private var status: ExitStatus?

    init(pid: pid_t, executable: String, pidfd: Int32?, pidfdErrno: Int32?, pipes: [Int32?],
         limitFailures: [ResourceLimitFailure]) {
        self.pid = pid
        self.executable = executable
        self.pidfd = pidfd
        self.pidfdErrno = pidfdErrno
        (standardInput, standardOutput, standardError) = (pipes[0], pipes[1], pipes[2])
        self.limitFailures = limitFailures
    }

    deinit {
        if let pidfd { close(pidfd) }
    }

    /// How it ended, once it has been reaped; nil before.
    package var exitStatus: ExitStatus? { lock.withLock { status } }

    /// True until it has exited (reaps it when it has).
    package var isRunning: Bool { reapIfExited() == nil }

    /// Sends `signal` unless it has been reaped. False if it was not sent (reaped, or
    /// the kernel refused).
    @discardableResult
    package func signal(_ signal: Int32) -> Bool {
        lock.withLock {
            guard status == nil else { return false }
            if let pidfd { return ib_pidfd_send_signal(pidfd, signal) == 0 }
            return kill(pid, signal) == 0
        }
    }

    /// Reaps it if it has exited, without blocking: its status, or nil while it runs.
    @discardableResult
    package func reapIfExited() -> ExitStatus? {
        lock.withLock {
            if let status { return status }
            var word: Int32 = 0
            var rc: pid_t
            repeat { rc = waitpid(pid, &word, WNOHANG) } while rc < 0 && errno == EINTR
            if rc == 0 { return nil }
            let ended = rc < 0 ? ExitStatus.unknown : ExitStatus(waitStatus: word)
            status = ended
            return ended
        }
    }

    /// Blocks until it exits, and reaps it.
    package func wait() -> ExitStatus {
        while true {
            if let status = reapIfExited() { return status }
            if let pidfd {
                _ = Self.pollReadable(pidfd, milliseconds: -1)
            } else {
                // Waits for the exit without reaping (WNOWAIT): the pid stays this
                // child's, so a `signal` meanwhile cannot hit another process.
                var info = siginfo_t()
                if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno != EINTR {
                    return reapIfExited() ?? .unknown
                }
            }
        }
    }

    /// Waits at most `timeout` for it to exit: its status, or nil if it still runs.
    package func wait(timeout: Duration) -> ExitStatus? {
        let deadline = MonotonicClock.now() &+ Self.nanoseconds(timeout)
        while true {
            if let status = reapIfExited() { return status }
            let now = MonotonicClock.now()
            guard now < deadline else { return nil }
            let left = deadline - now
            if let pidfd {
                _ = Self.pollReadable(pidfd, milliseconds: Int32(min(left / 1_000_000 + 1, 60_000)))
            } else {
                usleep(UInt32(min(left / 1_000, 2_000)))  // no pidfd: check every 2 ms
            }
        }
    }

    /// SIGTERM, up to `grace` for it to exit, then SIGKILL; always reaps, and returns
    /// how it ended. Safe to call twice, and on a process that has already exited.
    @discardableResult
    package func stop(grace: Duration = .seconds(3)) -> ExitStatus {
        if let status = reapIfExited() { return status }
        signal(SIGTERM)
        if let status = wait(timeout: grace) { return status }
        signal(SIGKILL)
        return wait()
    }

    /// poll(2) for one descriptor: true when it is readable (or hung up).
    static func pollReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var rc: Int32
        repeat { rc = poll(&entry, 1, milliseconds) } while rc < 0 && errno == EINTR
        return rc > 0
    }

    /// A duration in nanoseconds, 0 for a negative one, saturating.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if whole.overflow { return UInt64.max }
        let total = whole.partialValue.addingReportingOverflow(UInt64(max(0, attoseconds) / 1_000_000_000))
        return total.overflow ? UInt64.max : total.partialValue
    }
}
