import Foundation
import IntentBusCore
import IntentBusZMQ

/// How a client fails.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// The host answered with ERROR.
    case bus(BusError)
    /// The host did not answer at all within the wait (is it running?).
    case noAnswer(endpoint: String, waited: Duration)
    /// A socket call failed.
    case transport(ZMQError)
    /// The host sent something that isn't IB1.
    case protocolViolation(String)
    /// The prompt handler gave up (no answer available).
    case unanswered(Prompt)
    /// The host holding the request was lost (its connection dropped, or it missed the
    /// client's heartbeats) and the request was not resent: it is not idempotent, it had
    /// prompted, or no other host was left. The code is `host_lost` (docs/protocol.md,
    /// "Several hosts"); the request may or may not have run there.
    case hostLost(endpoint: String, requestId: String, why: String)

    /// The wire-style code: `host_lost` for a lost host, the ERROR's code for `.bus`, nil otherwise.
    public var code: String? {
        switch self {
        case .bus(let e): e.code.rawValue
        case .hostLost: "host_lost"
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .bus(let e): "\(e.code.rawValue): \(e.message)"
        case .noAnswer(let ep, let waited): "no answer from the host at \(ep) within \(waited.humanText) (is `intentbus host` running?)"
        case .transport(let e): "transport: \(e)"
        case .protocolViolation(let m): "protocol violation: \(m)"
        case .hostLost(let ep, let id, let why): "host_lost: the host at \(ep) was lost while it held request \(id) (\(why)); it was not sent again, and it may or may not have run there"
        case .unanswered(let p): "the host asked \"\(p.dialog)\" (\(p.kind)\(p.parameter.map { " for \($0)" } ?? "")) and no answer was given"
        }
    }
}
