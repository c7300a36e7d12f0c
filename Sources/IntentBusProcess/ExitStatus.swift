import Foundation
import IntentBusCore

/// How a child process ended, as `waitpid` reported it.
package enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    /// The status word `waitpid` filled in.
    package init(waitStatus s: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift can't import.
        if s & 0x7f == 0 { self = .exited((s >> 8) & 0xff) } else { self = .signalled(s & 0x7f) }
    }

    /// What is reported for a child someone else reaped first (`waitpid` said ECHILD): it
    /// has ended, how is unknown.
    static let unknown = ExitStatus(waitStatus: 0x7f)

    package var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let sig): "was killed by signal \(sig)\(ExitStatus.signalName(sig).map { " (\($0))" } ?? "")"
        }
    }

    /// The JSON form used in `plugin_crashed` details.
    package var json: JSON {
        switch self {
        case .exited(let code): ["code": .int(Int64(code))]
        case .signalled(let sig): ["signal": .int(Int64(sig))]
        }
    }

    /// The name of the signals a child is usually ended by; nil for the others.
    package static func signalName(_ sig: Int32) -> String? {
        switch sig {
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGSEGV: "SIGSEGV"
        case SIGABRT: "SIGABRT"
        case SIGILL: "SIGILL"
        case SIGBUS: "SIGBUS"
        case SIGTRAP: "SIGTRAP"
        case SIGINT: "SIGINT"
        case SIGXCPU: "SIGXCPU"
        default: nil
        }
    }
}
