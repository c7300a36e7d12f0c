import Foundation
import IntentBusZMQ

/// Messages for clients whose pipe is full (they send but do not read), kept in order
/// and sent as soon as they read again, within `limits.client_backlog` messages and
/// `client_backlog_bytes` per client. Part of the shell: it is about socket state.
///
/// Owned by the router thread.
struct ClientBacklogs {
    /// The bytes every backlog holds together, for `host.limits.max_queued_bytes`.
    final class Total { var bytes = 0 }

    /// What waits for one client.
    final class Backlog {
        let identity: Data
        private let total: Total
        private var messages: [[Frame]] = []
        private var head = 0
        private(set) var bytes = 0

        init(identity: Data, total: Total) {
            self.identity = identity
            self.total = total
        }

        var count: Int { messages.count - head }
        var isEmpty: Bool { head == messages.count }
        var first: [Frame]? { isEmpty ? nil : messages[head] }

        /// Keeps `frames` unless that would pass `limit` messages or `byteLimit` bytes;
        /// false (and counted) then.
        /// `totalLimit` bounds the bytes of every backlog together.
        func append(_ frames: [Frame], limit: Int, byteLimit: Int, totalLimit: Int) -> Bool {
            let size = frames.reduce(0) { $0 + $1.count }
            guard count < limit, bytes + size <= byteLimit, total.bytes + size <= totalLimit else { return false }
            messages.append(frames)
            bytes += size
            total.bytes += size
            return true
        }

        /// The first waiting message was sent.
        func removeFirst() {
            guard !isEmpty else { return }
            let size = messages[head].reduce(0) { $0 + $1.count }
            bytes -= size
            total.bytes -= size
            messages[head] = []
            head += 1
            if head == messages.count {
                messages.removeAll()
                head = 0
            } else if head > 1_024, head * 2 > messages.count {
                messages.removeFirst(head)
                head = 0
            }
        }

        func clear() {
            messages.removeAll()
            head = 0
            total.bytes -= bytes
            bytes = 0
        }
    }

    /// What was dropped for one client: since the last report in the log, and in all.
    /// Kept apart from its backlog, which closes whenever it is empty (a message too
    /// large for it alone leaves it empty): the counts used to start again with every
    /// new backlog, so each drop was reported as the first, "(1 in all)".
    struct Drops {
        var sinceReport = 0
        var total = 0
        var lastReport: UInt64 = 0
    }

    /// Clients that lost answers and have not read since (at most 4,096 kept: the
    /// oldest reported are forgotten first).
    private(set) var drops: [PeerKey: Drops] = [:]

    /// Counts a dropped answer for `identity`; returns the counts when a report is due
    /// (the first drop, then at most once a second), and marks it made.
    mutating func dropped(_ identity: Data, now: UInt64) -> Drops? {
        let key = PeerKey(identity: identity)
        if drops[key] == nil, drops.count >= 4_096 {
            drops = drops.filter { now - $0.value.lastReport < 10_000_000_000 }
        }
        var d = drops[key] ?? Drops()
        d.sinceReport += 1
        d.total += 1
        var report: Drops?
        if d.lastReport == 0 || now - d.lastReport > 1_000_000_000 {
            report = d
            d.sinceReport = 0
            d.lastReport = now
        }
        drops[key] = d
        return report
    }

    /// The client read again: its drop counts, if any, end.
    mutating func readAgain(_ identity: Data) -> Drops? {
        drops.isEmpty ? nil : drops.removeValue(forKey: PeerKey(identity: identity))
    }

    /// Clients with messages waiting (usually none).
    private(set) var waiting: [PeerKey: Backlog] = [:]
    let total = Total()

    var isEmpty: Bool { waiting.isEmpty }

    func backlog(for identity: Data) -> Backlog? {
        waiting.isEmpty ? nil : waiting[PeerKey(identity: identity)]
    }

    /// The backlog for `identity`, made when it has none.
    mutating func open(_ identity: Data) -> Backlog {
        let key = PeerKey(identity: identity)
        if let backlog = waiting[key] { return backlog }
        let backlog = Backlog(identity: identity, total: total)
        waiting[key] = backlog
        return backlog
    }

    mutating func close(_ backlog: Backlog) { waiting.removeValue(forKey: PeerKey(identity: backlog.identity)) }
}
