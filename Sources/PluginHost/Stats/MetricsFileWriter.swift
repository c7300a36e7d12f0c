import Foundation
import IntentBus

/// Writes the host's metrics (Prometheus text format) to `host.metrics_file` every
/// `host.metrics_interval`, for node_exporter's textfile collector: into a temporary file
/// in the same directory, then renamed over the target, so a reader never sees half a file.
///
/// It asks the router for `ib.metrics` over the frontend like any client, so the router
/// needs no timer of its own for it. Threading: one thread of its own; `stop()` from any.
public final class MetricsFileWriter: @unchecked Sendable {
    // @unchecked: `stopped` is only touched while holding `lock`.
    public let path: String
    private let interval: Duration
    private let frontend: String
    private let logger: Logger
    private let lock = Lock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts writing when the manifest names a metrics file; nil otherwise.
    public static func start(_ settings: HostSettings, logger: Logger) -> MetricsFileWriter? {
        guard let path = settings.metricsFile else { return nil }
        let writer = MetricsFileWriter(path: path, interval: settings.metricsInterval, frontend: settings.frontend,
                                       logger: logger)
        let thread = Thread { writer.loop() }
        thread.name = "metrics-file"
        thread.start()
        return writer
    }

    private init(path: String, interval: Duration, frontend: String, logger: Logger) {
        self.path = path
        self.interval = interval
        self.frontend = frontend
        self.logger = logger
    }

    /// Stops writing (the last file stays); waits at most 0.5 s for the thread.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        // A request in progress may wait for a router that is shutting down: do not hold
        // the host's exit for it.
        if wasRunning { _ = done.wait(timeout: .now() + 0.5) }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func loop() {
        defer { done.signal() }
        guard let client = try? IntentClient(endpoint: frontend, context: ZMQContext()) else {
            logger.error("metrics file: cannot open a socket to \(frontend); not writing \(path)")
            return
        }
        client.hostSlack = .zero
        var failing = false
        while !isStopped {
            do {
                let body = try client.control("ib.metrics", wait: .seconds(5))
                try Self.writeAtomically(body["text"]?.stringValue ?? "", to: path)
                if failing { logger.info("metrics file: writing \(path) again") }
                failing = false
            } catch {
                if !failing { logger.warning("metrics file: \(path) not updated: \(error)") }
                failing = true
            }
            var remaining = Int64(interval.nanoseconds)
            while remaining > 0 && !isStopped {
                let step = min(remaining, 50_000_000)
                usleep(UInt32(step / 1_000))
                remaining -= step
            }
        }
    }

    /// Writes `text` to a temporary file beside `path`, flushes it, and renames it over
    /// `path` (rename(2) is atomic within one file system).
    static func writeAtomically(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(directory.isEmpty ? "." : directory)/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw MetricsFileError(path: temporary, operation: "open", errno: errno) }
        var ok = true
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { ok = false; return }
                offset += n
            }
        }
        let writeErrno = errno
        if ok && fsync(fd) != 0 { ok = false }
        close(fd)
        guard ok else {
            unlink(temporary)
            throw MetricsFileError(path: temporary, operation: "write", errno: writeErrno)
        }
        guard rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw MetricsFileError(path: path, operation: "rename", errno: e)
        }
    }
}

/// Why the metrics file could not be written.
public struct MetricsFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let errno: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))" }
}
