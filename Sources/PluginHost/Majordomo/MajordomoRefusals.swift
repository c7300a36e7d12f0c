import Foundation
import IntentBusCore

/// The DISCONNECTs for READYs the host refuses (a service no `mdp_worker` entry lists,
/// a worker without the entry's key), paced. An RFC 7 worker answers DISCONNECT with a
/// new socket and a new READY at once, so answering every READY at once makes a loop of
/// thousands a second, each with a log line. Here the first refusal of a service is
/// answered at once; each further one within `quiet` waits twice as long as the last
/// (from `firstDelay` up to `maximumDelay`) before its DISCONNECT goes, and the worker
/// sits on its socket meanwhile. The log says so once per `logEvery` per service, with a
/// count of the refusals it did not log.
///
/// Bounded: at most `maximumPending` peers wait for their DISCONNECT (past that a READY
/// is dropped unanswered: the worker's own liveness then reconnects it, slowly) and at
/// most `maximumServices` services are tracked (the rest share one entry).
///
/// Owned by the router thread, like the broker.
final class MajordomoRefusals {
    static let firstDelay: UInt64 = 250_000_000
    static let maximumDelay: UInt64 = 30_000_000_000
    static let quiet: UInt64 = 60_000_000_000
    static let logEvery: UInt64 = 10_000_000_000
    static let maximumPending = 1_024
    static let maximumServices = 256

    private struct Pace {
        var delay: UInt64 = 0
        var last: UInt64 = 0
        var loggedAt: UInt64?
        var unlogged = 0
    }

    private var paces: [String: Pace] = [:]
    /// Peers whose DISCONNECT is due later, earliest first.
    private var pending: [(identity: Data, due: UInt64)] = []
    private var waiting: Set<PeerKey> = []
    /// How many READYs were refused since the host started (ib.status).
    private(set) var refused = 0

    /// When the next paced DISCONNECT is due.
    var nextDeadline: UInt64? { pending.first?.due }

    /// Whether `identity` waits for its DISCONNECT: what it sends meanwhile is ignored.
    func isWaiting(_ identity: Data) -> Bool { waiting.contains(PeerKey(identity: identity)) }

    /// A READY for `service` from `identity` is refused for `why`: logs (paced) and returns
    /// whether to send DISCONNECT now; otherwise it is sent by `fireDue`, or never.
    func refuse(_ identity: Data, service: String, why: String, now: UInt64, logger: Logger) -> Bool {
        refused += 1
        let key = paces[service] != nil || paces.count < Self.maximumServices ? service : "*"
        var pace = paces[key] ?? Pace()
        if pace.last == 0 || now &- pace.last > Self.quiet {
            pace.delay = 0
        } else {
            pace.delay = min(Self.maximumDelay, max(Self.firstDelay, pace.delay * 2))
        }
        pace.last = now
        if let at = pace.loggedAt, now &- at < Self.logEvery {
            pace.unlogged += 1
        } else {
            let more = pace.unlogged > 0 ? " (\(pace.unlogged) more such READYs since the last line)" : ""
            let paced = pace.delay > 0 ? "; the DISCONNECT waits \(pace.delay / 1_000_000) ms, as the worker keeps coming back" : ""
            logger.warning("an MDP worker offered service \"\(service)\", which \(why); sent DISCONNECT\(paced)\(more)")
            pace.loggedAt = now
            pace.unlogged = 0
        }
        paces[key] = pace
        if pace.delay == 0 { return true }
        guard pending.count < Self.maximumPending, waiting.insert(PeerKey(identity: identity)).inserted else { return false }
        let due = now &+ pace.delay
        let at = pending.firstIndex { $0.due > due } ?? pending.count
        pending.insert((identity, due), at: at)
        return false
    }

    /// The peers whose DISCONNECT is due at `now`, forgotten here.
    func due(_ now: UInt64) -> [Data] {
        var out: [Data] = []
        while let first = pending.first, first.due <= now {
            pending.removeFirst()
            waiting.remove(PeerKey(identity: first.identity))
            out.append(first.identity)
        }
        return out
    }
}
