import Foundation

/// What to start: the executable, its arguments and environment, where its standard
/// streams go, and the limits it runs under.
public struct ProcessSpec: Sendable {
    /// The executable's path; not looked up in PATH. It is also argv[0].
    public var executable: String
    public var arguments: [String]
    public var environment: [String: String]
    /// Where the child starts; nil: the parent's working directory.
    public var workingDirectory: String?
    public var standardInput: StandardStream
    public var standardOutput: StandardStream
    public var standardError: StandardStream
    /// Set with prlimit(2) right after the start (see `ResourceLimit`).
    public var limits: [ResourceLimit]
    /// A process group of its own (pgid = pid), so that a terminal's Ctrl-C reaches only
    /// the parent, which then stops its children in its own order.
    public var ownProcessGroup: Bool
    /// False: no pidfd, as on a kernel without pidfd_open (the tests' way to that path).
    var opensPidfd = true

    /// By default the child gets this process's environment, /dev/null for input, and
    /// this process's output and error.
    public init(executable: String, arguments: [String] = [],
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
