import Foundation
import IntentBusProcess

/// What the host does for `memory_limit`, `cpu_limit` and `sha256` (docs/lifecycle.md,
/// "Limits and checksums"). Used by the router shell, on the router thread.
///
/// - `sha256` is checked before each start; the digest of an unchanged file (same device,
///   inode, size, modification and change times) is remembered, so a restart after a
///   crash does not read the executable again.
/// - `cpu_limit` is RLIMIT_CPU, which the spawner sets with prlimit(2) on the new pid
///   right after posix_spawn returns (posix_spawn has no rlimit attribute). The soft limit sends
///   SIGXCPU, the hard one (2 s later) SIGKILL. The process may run for the few
///   microseconds before the call, but RLIMIT_CPU counts CPU time from the start, so
///   nothing escapes it.
/// - `memory_limit` is watched by the host, not an rlimit: its resident size
///   (/proc/PID/statm) is read at every heartbeat check, and a process above it is
///   killed and reported as such. RLIMIT_AS would count reserved address space (the
///   Swift and Python runtimes reserve far more than they use) and would end the
///   process with an allocation failure that the host can't tell from any other crash.
final class ProcessGuards {
    private struct FileKey: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, modified: Int, modifiedNs: Int, changed: Int, changedNs: Int
    }
    private var digests: [String: (key: FileKey, digest: String)] = [:]

    /// Why `path` must not be started: its digest differs from `expected`, or it can't be
    /// read to compute one. Nil when it matches, or when it does not exist (the spawn then
    /// says why).
    func checksumProblem(path: String, expected: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                          modified: info.st_mtim.tv_sec, modifiedNs: info.st_mtim.tv_nsec,
                          changed: info.st_ctim.tv_sec, changedNs: info.st_ctim.tv_nsec)
        let digest: String
        if let known = digests[path], known.key == key {
            digest = known.digest
        } else {
            // A file the host may execute but not read is not started unchecked.
            guard let computed = Self.digest(of: path) else {
                return "the executable \(path) can't be read to check its sha256 (\(String(cString: strerror(errno)))); not started"
            }
            digest = computed
            digests[path] = (key, digest)
        }
        return digest == expected ? nil : "the executable \(path) has SHA-256 \(digest), not the manifest's sha256 \(expected); not started"
    }

    /// The SHA-256 of a file, read in 1 MiB pieces; nil if it can't be read.
    static func digest(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }  // nil at the end of the file
            hash.update(chunk)
        }
        return hash.finish()
    }

    /// The spawner's limit for `cpu_limit`: SIGXCPU at the limit (at least 1 s), SIGKILL
    /// 2 s later.
    static func cpuLimit(_ limit: Duration) -> ResourceLimit {
        .cpuTime(seconds: UInt64(max(1, limit.components.seconds)), killAfter: 2)
    }

    /// The resident size of `pid` in bytes, or nil when it can't be read.
    static func residentBytes(_ pid: pid_t) -> UInt64? { ProcessUsage.residentBytes(pid) }
}
