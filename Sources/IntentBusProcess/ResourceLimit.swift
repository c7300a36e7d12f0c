import Foundation

/// A resource limit (setrlimit's soft and hard values) set on a child right after it
/// starts. posix_spawn has no rlimit attribute, so it is set with prlimit(2) on the new
/// pid: the child runs for the few microseconds before the call without it, which does
/// not matter for the limits that count from the start (CPU time).
package struct ResourceLimit: Sendable, Equatable, CustomStringConvertible {
    /// The resources a child can be limited in.
    package enum Resource: Sendable, Equatable {
        /// RLIMIT_CPU, in seconds: SIGXCPU at the soft limit, SIGKILL at the hard one.
        case cpuSeconds
        /// RLIMIT_NOFILE.
        case openFiles
        /// RLIMIT_AS, in bytes.
        case addressSpace
        /// RLIMIT_CORE, in bytes.
        case coreFileSize
        /// RLIMIT_FSIZE, in bytes.
        case fileSize

        var rawValue: Int32 {
            switch self {
            case .cpuSeconds: Int32(RLIMIT_CPU.rawValue)
            case .openFiles: Int32(RLIMIT_NOFILE.rawValue)
            case .addressSpace: Int32(RLIMIT_AS.rawValue)
            case .coreFileSize: Int32(RLIMIT_CORE.rawValue)
            case .fileSize: Int32(RLIMIT_FSIZE.rawValue)
            }
        }
    }

    package let resource: Resource
    package let soft: UInt64
    package let hard: UInt64

    /// Nil when `soft` is above `hard` (the kernel would refuse it).
    package init?(_ resource: Resource, soft: UInt64, hard: UInt64) {
        guard soft <= hard else { return nil }
        self.resource = resource
        self.soft = soft
        self.hard = hard
    }

    /// CPU time: SIGXCPU after `seconds` (at least 1), SIGKILL `killAfter` seconds later.
    package static func cpuTime(seconds: UInt64, killAfter: UInt64 = 2) -> ResourceLimit {
        let soft = max(1, seconds)
        let hard = soft.addingReportingOverflow(killAfter)
        return ResourceLimit(.cpuSeconds, soft: soft, hard: hard.overflow ? UInt64.max : hard.partialValue)!
    }

    package var description: String { "\(resource) \(soft)/\(hard)" }
}

/// A limit the kernel refused to set on a child (the child runs without it).
package struct ResourceLimitFailure: Sendable, Equatable, CustomStringConvertible {
    package let limit: ResourceLimit
    package let errno: Int32
    package var description: String {
        "could not set \(limit): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
