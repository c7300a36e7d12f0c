import Foundation

/// The relay lane's request deadlines: one first-in, first-out queue per timeout value.
/// Within a queue every deadline is "now + the same timeout", so they come out in order
/// and a push is O(1), where a heap costs O(log n) per request. Finished requests stay
/// in their queue until they reach its head (checked against the lane's entries then),
/// and the queue is compacted once they outnumber the open ones, like `TimerHeap`'s.
///
/// Owned by the router thread.
struct RelayDeadlines {
    struct Queue {
        let timeout: UInt64
        var items: [(deadline: UInt64, id: UInt64)] = []
        var head = 0
        var live: Int { items.count - head }
    }

    private(set) var queues: [Queue] = []

    /// The queue for `timeout`, made when new (a handful per host: one per distinct
    /// plugin timeout among the lane's routes).
    mutating func queue(for timeout: UInt64) -> Int {
        if let i = queues.firstIndex(where: { $0.timeout == timeout }) { return i }
        queues.append(Queue(timeout: timeout))
        return queues.count - 1
    }

    /// The same, for a timeout a client asked for: nil when that would make more than
    /// `limit` queues (the poll loop looks at every queue's head, so their number stays
    /// small whatever clients send; such a request goes the core's way).
    mutating func queue(for timeout: UInt64, limit: Int) -> Int? {
        if let i = queues.firstIndex(where: { $0.timeout == timeout }) { return i }
        guard queues.count < limit else { return nil }
        return queue(for: timeout)
    }

    @inline(__always) mutating func push(_ queue: Int, deadline: UInt64, id: UInt64) {
        queues[queue].items.append((deadline, id))
    }

    /// Drops finished requests from the queues' heads and returns the earliest deadline
    /// of an open one; `isOpen` says whether a lane id is still open.
    mutating func next(_ isOpen: (UInt64) -> Bool) -> UInt64? {
        var earliest: UInt64?
        for q in queues.indices {
            while queues[q].head < queues[q].items.count, !isOpen(queues[q].items[queues[q].head].id) {
                queues[q].head += 1
            }
            trim(q)
            if queues[q].head < queues[q].items.count {
                let d = queues[q].items[queues[q].head].deadline
                earliest = min(earliest ?? d, d)
            }
        }
        return earliest
    }

    /// Removes and returns the ids whose deadline is at or before `now` (open or not).
    mutating func popDue(now: UInt64) -> [UInt64] {
        var due: [UInt64] = []
        for q in queues.indices {
            while queues[q].head < queues[q].items.count, queues[q].items[queues[q].head].deadline <= now {
                due.append(queues[q].items[queues[q].head].id)
                queues[q].head += 1
            }
            trim(q)
        }
        return due
    }

    /// Keeps the queues proportional to the open requests (`open`), at an amortised O(1)
    /// per request: finished ones are filtered out once they outnumber the open ones.
    mutating func compact(open: Int, _ isOpen: (UInt64) -> Bool) {
        for q in queues.indices where queues[q].live > 4_096 + 4 * open {
            queues[q].items = queues[q].items[queues[q].head...].filter { isOpen($0.id) }
            queues[q].head = 0
        }
    }

    mutating func removeAll() { queues.removeAll() }

    private mutating func trim(_ q: Int) {
        if queues[q].head == queues[q].items.count {
            queues[q].items.removeAll(keepingCapacity: true)
            queues[q].head = 0
        } else if queues[q].head > 4_096, queues[q].head * 2 > queues[q].items.count {
            queues[q].items.removeFirst(queues[q].head)
            queues[q].head = 0
        }
    }
}
