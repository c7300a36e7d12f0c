import Foundation
import IntentBusCore

extension ChildProcess {
    /// Starts `spec` and waits for it to end, capturing what it writes on the streams the
    /// spec sets to `.pipe` (the others go where the spec says; an input pipe is closed at
    /// once, so the child reads end-of-file).
    ///
    /// Hostile children are bounded: of each stream at most `keep` bytes are kept (the
    /// rest is read and counted, so the child never blocks on a full pipe, and
    /// `CapturedOutput.wasCut` says so), and a child still running after `timeout` is
    /// stopped (SIGTERM, `grace`, SIGKILL) and reported with `timedOut`. With
    /// `stopWhenCut`, a child is stopped as soon as it writes more than `keep` on a stream
    /// (for a caller to whom a cut output is useless anyway), reported with `stoppedWhenCut`. Once the child
    /// has exited, what is left in the pipes is read without waiting for a grandchild
    /// that may hold them open.
    ///
    /// Blocks the calling thread; no other thread is started.
    package static func run(_ spec: ProcessSpec, timeout: Duration, keep: Int = 1 << 20,
                           grace: Duration = .seconds(1), stopWhenCut: Bool = false) throws(SpawnError) -> CompletedProcess {
        let child = try spawn(spec)
        if let input = child.standardInput { close(input) }
        var reader = PipeReader(output: child.standardOutput, error: child.standardError, keep: max(0, keep))
        defer { reader.closeAll() }
        let deadline = MonotonicClock.now() &+ nanoseconds(timeout)
        var status: ExitStatus?
        var (timedOut, stoppedWhenCut) = (false, false)
        while status == nil {
            let now = MonotonicClock.now()
            if now >= deadline {
                timedOut = true
                status = child.stop(grace: grace)
                break
            }
            // Without a pidfd the exit is only seen by checking, every 20 ms.
            let wait = child.pidfd == nil ? min(deadline - now, 20_000_000) : deadline - now
            reader.poll(alsoWatching: child.pidfd, milliseconds: Int32(min(wait / 1_000_000 + 1, 60_000)))
            status = child.reapIfExited()
            if status == nil, stopWhenCut, reader.captured.contains(where: \.wasCut) {
                stoppedWhenCut = true
                status = child.stop(grace: grace)
            }
        }
        reader.drain(until: deadline)
        return CompletedProcess(status: status ?? .unknown, standardOutput: reader.captured[0],
                                standardError: reader.captured[1], timedOut: timedOut, stoppedWhenCut: stoppedWhenCut)
    }
}

/// Reads a running child's output and error pipes without blocking, keeping the first
/// `keep` bytes of each.
private struct PipeReader {
    /// The open pipe ends: output at 0, error at 1; nil once at end-of-file.
    private var fds: [Int32?]
    private(set) var captured = [CapturedOutput(), CapturedOutput()]
    private let keep: Int
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(output: Int32?, error: Int32?, keep: Int) {
        fds = [output, error]
        self.keep = keep
        for case let fd? in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// Waits up to `milliseconds` for output, or for `pidfd` (the child's exit), and
    /// reads what has come.
    mutating func poll(alsoWatching pidfd: Int32?, milliseconds: Int32) {
        var entries = fds.compactMap { $0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if let pidfd { entries.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
        guard !entries.isEmpty else {
            usleep(UInt32(max(0, milliseconds)) * 1_000)
            return
        }
        var rc: Int32
        repeat { rc = Glibc.poll(&entries, nfds_t(entries.count), milliseconds) } while rc < 0 && errno == EINTR
        guard rc > 0 else { return }
        for index in fds.indices { read(index) }
    }

    /// Reads everything the pipes hold now (the child has exited), giving up at
    /// `deadline` if a grandchild keeps writing.
    mutating func drain(until deadline: UInt64) {
        for index in fds.indices {
            while fds[index] != nil, read(index), MonotonicClock.now() < deadline {}
        }
    }

    /// One read from stream `index`: true if it got bytes.
    @discardableResult
    private mutating func read(_ index: Int) -> Bool {
        guard let fd = fds[index] else { return false }
        var n: Int
        repeat { n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } } while n < 0 && errno == EINTR
        if n > 0 {
            buffer.withUnsafeBytes { captured[index].append(UnsafeRawBufferPointer(rebasing: $0[0..<n]), keep: keep) }
            return true
        }
        if n == 0 {  // end of file
            close(fd)
            fds[index] = nil
        }
        return false  // EAGAIN: nothing for now
    }

    mutating func closeAll() {
        for case let fd? in fds { close(fd) }
        fds = [nil, nil]
    }
}
