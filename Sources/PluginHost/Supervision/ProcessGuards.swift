import Foundation
import IntentBusProcess

/// What the host does for `memory_limit`, `cpu_limit` and `sha256` (docs/lifecycle.md,
/// "Limits and checksums"). Used by the router shell, on the router thread.
///
/// - `sha256` is checked before each start on a descriptor of the executable, and the
///   host execs that descriptor (`openChecked`); the digest of an unchanged file (same
///   device, inode, size, modification and change times) is remembered, so a restart
///   after a crash does not read the executable again.
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

    /// The executable of a plugin with `sha256`, opened once and hashed through that
    /// descriptor, so that the host can exec the very file it checked (issue 23: checking
    /// the path and then spawning the path ran a file swapped in between).
    struct CheckedExecutable {
        /// Close-on-exec; the caller closes it after the spawn.
        let descriptor: Int32
        /// Starts with `#!`: run by its path (its interpreter opens the script by name
        /// after the exec, so a descriptor can't stand in for it; docs/security.md).
        let isScript: Bool
    }

    /// What `openChecked` found.
    enum ChecksumOutcome {
        case verified(CheckedExecutable)
        /// Why it must not be started: its digest differs, or it can't be read.
        case refused(String)
        /// It does not exist: the spawn then says why.
        case missing
    }

    /// Opens `path` and compares the SHA-256 of what the descriptor reads with `expected`.
    func openChecked(path: String, expected: String) -> ChecksumOutcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .missing }
            // A file the host may execute but not read is not started unchecked.
            return .refused(unreadable(path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let problem = unreadable(path)
            close(fd)
            return .refused(problem)
        }
        // Remembered per file version: the key comes from the open descriptor, which is
        // what will be executed, so a file renamed over the path is hashed anew.
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                          modified: info.st_mtim.tv_sec, modifiedNs: info.st_mtim.tv_nsec,
                          changed: info.st_ctim.tv_sec, changedNs: info.st_ctim.tv_nsec)
        let digest: String
        if let known = digests[path], known.key == key {
            digest = known.digest
        } else {
            guard let computed = Self.digest(ofDescriptor: fd) else {
                let problem = unreadable(path)
                close(fd)
                return .refused(problem)
            }
            digest = computed
            digests[path] = (key, digest)
        }
        guard digest == expected else {
            close(fd)
            return .refused("the executable \(path) has SHA-256 \(digest), not the manifest's sha256 \(expected); not started")
        }
        var magic: [UInt8] = [0, 0]
        let isScript = pread(fd, &magic, 2, 0) == 2 && magic == [UInt8(ascii: "#"), UInt8(ascii: "!")]
        return .verified(CheckedExecutable(descriptor: fd, isScript: isScript))
    }

    /// Why `path` must not be started, or nil when its digest matches or it does not
    /// exist (the descriptor is not kept: for tests and checks without a spawn).
    func checksumProblem(path: String, expected: String) -> String? {
        switch openChecked(path: path, expected: expected) {
        case .verified(let file):
            close(file.descriptor)
            return nil
        case .refused(let problem): return problem
        case .missing: return nil
        }
    }

    private func unreadable(_ path: String) -> String {
        "the executable \(path) can't be read to check its sha256 (\(String(cString: strerror(errno)))); not started"
    }

    /// The SHA-256 of a file, read in 1 MiB pieces; nil if it can't be read.
    static func digest(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return digest(ofDescriptor: fd)
    }

    /// The SHA-256 of what `fd` reads from its start, in 1 MiB pieces; nil on a read error
    /// (a directory, say). Reads with pread, so the descriptor's offset is left alone.
    static func digest(ofDescriptor fd: Int32) -> String? {
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            hash.update(Data(buffer[0..<n]))
            offset += off_t(n)
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
