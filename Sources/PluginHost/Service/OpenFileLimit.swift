import Foundation

/// The host's RLIMIT_NOFILE. Every client connection is a descriptor, and the common
/// soft limit of 1,024 (systemd's default) is far below the hard one (often 524,288):
/// the host raises its soft limit to the hard one when it starts, as a server that
/// expects many connections should, and sizes its `ConnectionBudget` from the result.
/// Plugins inherit the raised limit.
enum OpenFileLimit {
    /// Raises the soft limit to the hard one.
    /// - Returns: the soft limit in force afterwards, and the hard one (the soft one is
    ///   unchanged when the kernel refuses).
    static func raiseToHard() -> (soft: UInt64, hard: UInt64) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (1_024, 1_024) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }
}
