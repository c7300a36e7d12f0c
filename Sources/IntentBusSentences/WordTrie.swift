/// Word numbers → value indices, one word per level, frozen into flat sorted arrays: a
/// step is a binary search over a node's edges (an area list's first level has hundreds),
/// with no hashing and nothing retained.
final class WordTrie: Sendable {
    /// Node n's edges are `edgeWord/edgeChild[edgeStart[n] ..< edgeStart[n + 1]]`, by word.
    private let edgeStart: [Int32]
    private let edgeWord: [Int32]
    private let edgeChild: [Int32]
    /// Node n's values are `values[valueStart[n] ..< valueStart[n + 1]]`, in insertion order.
    private let valueStart: [Int32]
    private let values: [Int32]

    /// A trie of `entries` (each value said as its non-empty word numbers).
    init(_ entries: [(words: [Int32], value: Int)]) {
        var children: [[Int32: Int32]] = [[:]]
        var terminals: [[Int32]] = [[]]
        for (words, value) in entries {
            var node = 0
            for word in words {
                if let next = children[node][word] { node = Int(next); continue }
                children.append([:])
                terminals.append([])
                children[node][word] = Int32(children.count - 1)
                node = children.count - 1
            }
            terminals[node].append(Int32(value))
        }
        var edgeStart: [Int32] = [], edgeWord: [Int32] = [], edgeChild: [Int32] = []
        var valueStart: [Int32] = [], values: [Int32] = []
        for node in children.indices {
            edgeStart.append(Int32(edgeWord.count))
            for (word, child) in children[node].sorted(by: { $0.key < $1.key }) {
                edgeWord.append(word)
                edgeChild.append(child)
            }
            valueStart.append(Int32(values.count))
            values += terminals[node]
        }
        edgeStart.append(Int32(edgeWord.count))
        valueStart.append(Int32(values.count))
        self.edgeStart = edgeStart
        self.edgeWord = edgeWord
        self.edgeChild = edgeChild
        self.valueStart = valueStart
        self.values = values
    }

    /// Appends every (end, value) for values said from `start` on in `words`, shortest first.
    func matches(_ words: [Int32], from start: Int, into out: inout [(end: Int32, value: Int32)]) {
        var node = 0
        var position = start
        while position < words.count, let next = child(node, words[position]) {
            node = next
            position += 1
            for k in Int(valueStart[node])..<Int(valueStart[node + 1]) { out.append((Int32(position), values[k])) }
        }
    }

    @inline(__always)
    private func child(_ node: Int, _ word: Int32) -> Int? {
        var lo = Int(edgeStart[node]), hi = Int(edgeStart[node + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            if edgeWord[mid] < word { lo = mid + 1 } else { hi = mid }
        }
        return lo < Int(edgeStart[node + 1]) && edgeWord[lo] == word ? Int(edgeChild[lo]) : nil
    }
}
