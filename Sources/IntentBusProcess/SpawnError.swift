import Foundation

/// Why a process could not be started: the file named by `path` (the executable, or a
/// file chosen for one of its standard streams) and the errno, or a `reason` when it is
/// not an errno (the host's `sha256` mismatch, a stream set up the wrong way).
package struct SpawnError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let errno: Int32
    /// Why, when it is not an errno.
    package var reason: String?

    package init(path: String, errno: Int32, reason: String? = nil) {
        self.path = path
        self.errno = errno
        self.reason = reason
    }

    package var description: String {
        if let reason { return reason }
        return switch errno {
        case ENOENT: "executable not found: \(path)"
        case EACCES: "executable is not executable (permission denied): \(path)"
        case ENOEXEC: "not an executable file: \(path)"
        default: "could not start \(path): \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}
