import Foundation
import IntentBusZMQ

/// Messages for clients whose pipe is full (they send but do not read), kept in order
/// and sent as soon as they read again, within `limits.client_backlog` messages and
/// `client_backlog_bytes` per client. Part of the shell: it is about socket state.
///
/// Owned by the router thread.
struct ClientBacklogs {
    /// What waits for one client.
    final class Backlog {
        let identity: Data
        private var messages: [[Frame]] = []
        private var head = 0
        private(set) var bytes = 0
        /// Dropped since the last report in the log, and in all.
        var dropped = 0
        var droppedTotal = 0
        var lastDropReport: UInt64 = 0

        init(identity: Data) { self.identity = identity }

        var count: Int { messages.count - head }
        var isEmpty: Bool { head == messages.count }
        var first: [Frame]? { isEmpty ? nil : messages[head] }

        /// Keeps `frames` unless that would pass `limit` messages or `byteLimit` bytes;
        /// false (and counted) then.
        func append(_ frames: [Frame], limit: Int, byteLimit: Int) -> Bool {
            let size = frames.reduce(0) { $0 + $1.count }
            guard count < limit, bytes + size <= byteLimit else {
                dropped += 1
                droppedTotal += 1
                return false
            }
            messages.append(frames)
            bytes += size
            return true
        }

        /// The first waiting message was sent.
        func removeFirst() {
            guard !isEmpty else { return }
            bytes -= messages[head].reduce(0) { $0 + $1.count }
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
            bytes = 0
        }
    }

    /// Clients with messages waiting (usually none).
    private(set) var waiting: [PeerKey: Backlog] = [:]

    var isEmpty: Bool { waiting.isEmpty }

    func backlog(for identity: Data) -> Backlog? {
        waiting.isEmpty ? nil : waiting[PeerKey(identity: identity)]
    }

    /// The backlog for `identity`, made when it has none.
    mutating func open(_ identity: Data) -> Backlog {
        let key = PeerKey(identity: identity)
        if let backlog = waiting[key] { return backlog }
        let backlog = Backlog(identity: identity)
        waiting[key] = backlog
        return backlog
    }

    mutating func close(_ backlog: Backlog) { waiting.removeValue(forKey: PeerKey(identity: backlog.identity)) }
}
