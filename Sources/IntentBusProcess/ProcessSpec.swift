import Foundation

/// What to start: the executable, its arguments and environment, where its standard
/// streams go, and the limits it runs under.
package struct ProcessSpec: Sendable {
    /// The executable's path; not looked up in PATH. It is also argv[0].
    package var executable: String
    package var arguments: [String]
    package var environment: [String: String]
    /// Where the child starts; nil: the parent's working directory.
    package var workingDirectory: String?
    package var standardInput: StandardStream
    package var standardOutput: StandardStream
    package var standardError: StandardStream
    /// Set with prlimit(2) right after the start (see `ResourceLimit`).
    package var limits: [ResourceLimit]
    /// A process group of its own (pgid = pid), so that a terminal's Ctrl-C reaches only
    /// the parent, which then stops its children in its own order.
    package var ownProcessGroup: Bool
    /// False: no pidfd, as on a kernel without pidfd_open (the tests' way to that path).
    var opensPidfd = true
    /// An open descriptor of the executable to run instead of looking `executable` up
    /// again: the child execs `/proc/self/fd/N`, the very file that was opened (and, for
    /// `sha256`, hashed), whatever is renamed over the path meanwhile. `executable` stays
    /// argv[0] and names it in errors. The caller keeps and closes the descriptor; it may
    /// be close-on-exec (it is open in the child until the exec succeeds). Not for `#!`
    /// scripts: their interpreter would be given `/proc/self/fd/N` to open after the exec.
    package var executableDescriptor: Int32?

    /// By default the child gets this process's environment, /dev/null for input, and
    /// this process's output and error.
    package init(executable: String, arguments: [String] = [],
                environment: [String: String] = ProcessInfo.processInfo.environment,
                workingDirectory: String? = nil,
                standardInput: StandardStream = .null, standardOutput: StandardStream = .inherit,
                standardError: StandardStream = .inherit, limits: [ResourceLimit] = [], ownProcessGroup: Bool = false) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.limits = limits
        self.ownProcessGroup = ownProcessGroup
    }
}
