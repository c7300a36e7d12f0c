import Foundation

/// The remembered choices' keys in listing order (intent, then client, the entry for
/// every client first), kept sorted as choices come and go, so that a page of
/// `ib.choices.list` costs a binary search and the page itself, never a sort of
/// everything on the router thread (docs/reliability.md, "Host intents").
///
/// Writes are rate-limited per client and commit through SQLite first, so the O(n)
/// insertion into the array costs nothing next to them.
struct ChoiceOrder {
    /// One choice's key; `client` is "" for the entry for every client.
    struct Key: Comparable, Hashable {
        let intent: String
        let client: String
        static func < (a: Key, b: Key) -> Bool { (a.intent, a.client) < (b.intent, b.client) }
    }

    private(set) var keys: [Key] = []

    var count: Int { keys.count }

    /// The index of the first key not below `key`.
    func lowerBound(_ key: Key) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    mutating func insert(_ key: Key) {
        let i = lowerBound(key)
        if i == keys.count || keys[i] != key { keys.insert(key, at: i) }
    }

    mutating func remove(_ key: Key) {
        let i = lowerBound(key)
        if i < keys.count, keys[i] == key { keys.remove(at: i) }
    }

    /// Removes every key of `intent`.
    mutating func remove(intent: String) {
        let start = lowerBound(Key(intent: intent, client: ""))
        var end = start
        while end < keys.count, keys[end].intent == intent { end += 1 }
        keys.removeSubrange(start..<end)
    }

    mutating func removeAll() { keys.removeAll() }
}
