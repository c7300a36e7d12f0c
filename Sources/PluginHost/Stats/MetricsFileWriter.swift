import Foundation
import IntentBusCore
import IntentBusManifest

/// Writes the host's metrics (Prometheus text format) to `host.metrics_file` every
/// `host.metrics_interval`, for node_exporter's textfile collector: into a temporary file
/// in the same directory, then renamed over the target, so a reader never sees half a file.
///
/// It asks the router for `ib.metrics` through the host's internal endpoint, so the router
/// needs no timer of its own for it. Threading: the probe's thread; `stop()` from any.
package final class MetricsFileWriter: Sendable {
    package let path: String
    private let probe: HostProbe

    /// Starts writing when the manifest names a metrics file; nil otherwise.
    package static func start(_ settings: HostSettings, endpoint: InternalEndpoint, logger: Logger) -> MetricsFileWriter? {
        guard let path = settings.metricsFile else { return nil }
        let probe = HostProbe(name: "metrics-file", endpoint: endpoint, intent: "ib.metrics", wait: .seconds(5),
                              interval: settings.metricsInterval, logger: logger) { result, failing in
            do {
                let body = try result.get()
                try Self.writeAtomically(body["text"]?.stringValue ?? "", to: path)
                if failing { logger.info("metrics file: writing \(path) again") }
                return true
            } catch {
                if !failing { logger.warning("metrics file: \(path) not updated: \(error)") }
                return false
            }
        }
        return MetricsFileWriter(path: path, probe: probe)
    }

    private init(path: String, probe: HostProbe) {
        self.path = path
        self.probe = probe
    }

    /// Stops writing (the last file stays); waits at most 0.5 s for the thread.
    package func stop() { probe.stop() }

    /// Writes `text` to a temporary file beside `path`, flushes it, and renames it over
    /// `path` (rename(2) is atomic within one file system).
    static func writeAtomically(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(directory.isEmpty ? "." : directory)/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        // Whoever can write the directory may have planted a symlink (or a file) under the
        // temporary's name: remove that name (unlink never follows a link), then create the
        // file afresh, never through a link (O_EXCL | O_NOFOLLOW). A name planted again in
        // between makes the open fail, and nothing is written anywhere else.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
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
package struct MetricsFileError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let operation: String
    package let errno: Int32
    package var description: String { "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))" }
}
