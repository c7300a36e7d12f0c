/// A min-heap of deadlines, owned by the router thread. Cancelled timers are not removed;
/// their actions check a generation number when they fire.
struct TimerHeap<Action> {
    private struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        let action: Action
    }

    private var entries: [Entry] = []
    private var sequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, in monotonic nanoseconds.
    var nextDeadline: UInt64? { entries.first?.deadline }

    mutating func schedule(at deadline: UInt64, _ action: Action) {
        sequence += 1
        entries.append(Entry(deadline: deadline, sequence: sequence, action: action))
        var i = entries.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(i, parent) else { break }
            entries.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns every action due at `now`, earliest first.
    mutating func popDue(now: UInt64) -> [Action] {
        var due: [Action] = []
        while let first = entries.first, first.deadline <= now {
            due.append(first.action)
            removeFirst()
        }
        return due
    }

    /// Keeps only the entries `isLive` accepts and rebuilds the heap, in O(n), into storage
    /// of the new size (so that memory is given back). For timers whose owner has ended.
    mutating func compact(keeping isLive: (Action) -> Bool) {
        entries = entries.filter { isLive($0.action) }
        var i = entries.count / 2 - 1
        while i >= 0 {
            siftDown(from: i)
            i -= 1
        }
    }

    private mutating func removeFirst() {
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < entries.count, less(l, smallest) { smallest = l }
            if r < entries.count, less(r, smallest) { smallest = r }
            if smallest == i { return }
            entries.swapAt(i, smallest)
            i = smallest
        }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        entries[a].deadline != entries[b].deadline
            ? entries[a].deadline < entries[b].deadline
            : entries[a].sequence < entries[b].sequence
    }
}
