import Foundation

/// Writes log lines to a file descriptor from a thread of its own, so that a slow or
/// stalled reader (a full stderr pipe nobody drains) never blocks the thread that logs;
/// above all, never the host's router thread.
///
/// Lines wait in a bounded queue (`maxLines`, `maxBytes`). When it is full, new lines are
/// dropped and counted; once the writer catches up it writes one line saying how many
/// were lost. Pending lines are written at process exit (`atexit`), for at most
/// `exitFlushSeconds`, so that a stalled reader can't hold the exit up either.
///
/// Thread-safe: `write` may be called from any thread and takes a lock for a queue append.
public final class LogWriter: @unchecked Sendable {
    // @unchecked: `pending`, `pendingBytes`, `dropped`, `writing` and `droppedNotice` are
    // only touched while holding `condition`.
    public static let standardError = LogWriter(fd: 2)

    public let maxLines: Int
    public let maxBytes: Int
    public static let exitFlushSeconds = 2.0

    private let fd: Int32
    private let condition = NSCondition()
    private var pending: [String] = []
    private var pendingBytes = 0
    private var dropped = 0
    /// Whether the writer thread holds a batch it has not finished writing.
    private var writing = false
    /// Formats the "lines were dropped" notice, in the format of the lines around it.
    private var droppedNotice: @Sendable (Int) -> String = { "warning [log] dropped \($0) log lines: the log's reader was too slow" }

    public init(fd: Int32, maxLines: Int = 8_192, maxBytes: Int = 1 << 20) {
        self.fd = fd
        self.maxLines = maxLines
        self.maxBytes = maxBytes
        let thread = Thread { [unowned self] in self.drainForever() }
        thread.name = "log-writer-\(fd)"
        thread.start()
        if fd == 2 { atexit { LogWriter.standardError.flush(timeout: LogWriter.exitFlushSeconds) } }
    }

    /// Queues one line (without its newline). Never blocks on the file descriptor.
    public func write(_ line: String, droppedNotice notice: (@Sendable (Int) -> String)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        if let notice { droppedNotice = notice }
        guard pending.count < maxLines, pendingBytes + line.utf8.count + 1 <= maxBytes else {
            dropped += 1
            return
        }
        pending.append(line)
        pendingBytes += line.utf8.count + 1
        condition.signal()
    }

    /// How many lines were dropped and not yet reported.
    public var droppedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    /// Waits until every queued line is written, or `timeout` seconds passed; true when done.
    @discardableResult
    public func flush(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty || writing {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    private func drainForever() {
        while true {
            condition.lock()
            while pending.isEmpty && dropped == 0 { condition.wait() }
            var batch = pending
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
            // The notice follows the lines that were queued before the drop.
            if dropped > 0 {
                batch.append(droppedNotice(dropped))
                dropped = 0
            }
            writing = true
            condition.unlock()

            var text = batch.joined(separator: "\n")
            text.append("\n")
            writeAll(text)

            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Blocking write of everything, retrying EINTR and short writes; gives up on errors
    /// other than EINTR/EAGAIN (a closed pipe must not take the process down).
    private func writeAll(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 { offset += n; continue }
                let e = errno
                if n < 0 && e == EINTR { continue }
                if n < 0 && e == EAGAIN { usleep(10_000); continue }
                return
            }
        }
    }
}
