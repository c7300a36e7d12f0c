/// A compiled template as a graph over numbers, what `SentenceMatcher` walks: every node
/// knows the node after it, so a sequence needs no continuation frame on the heap, and
/// words, lists and slots are the numbers of `MatchTables`, so the walk neither hashes nor
/// retains a String. Lowered from a `SentenceNode` (rules already inlined, permutations
/// spelled out), the graph is acyclic.
final class MatchProgram: Sendable {
    enum Op: Sendable {
        /// The words `words[start ..< start + count]` in a row (`chars`: hassil's literal score).
        case words(start: Int32, count: Int32, chars: Int32, next: Int32)
        /// One of `options[start ..< start + count]`, tried in order.
        case split(start: Int32, count: Int32)
        /// A list value filling a slot.
        case list(list: Int32, slot: Int32, next: Int32)
        /// The template (or a list value's template) is complete.
        case end
    }

    /// One way on from a split, with the words it can start with: `firsts[firstStart ..<
    /// firstStart + firstCount]`, sorted; `firstCount` -1 when it may start with anything.
    struct Option: Sendable {
        let target: Int32
        let firstStart: Int32
        let firstCount: Int32
    }

    let ops: [Op]
    let words: [Int32]
    let options: [Option]
    let firsts: [Int32]
    let entry: Int32
    /// The words any match starts with, sorted; nil when it may start with anything.
    let start: [Int32]?

    init(_ node: SentenceNode, tables: inout MatchTables) {
        var builder = Builder()
        entry = builder.lower(node, next: 0, tables: &tables)
        start = node.firstWords.map { MatchProgram.sortedIDs($0, &tables) }
        ops = builder.ops
        words = builder.words
        options = builder.options
        firsts = builder.firsts
    }

    /// Whether `word` is among `option`'s first words (a few: scanned; many: halved).
    @inline(__always)
    func allows(_ option: Option, _ word: Int32) -> Bool {
        guard option.firstCount >= 0 else { return true }
        return Self.contains(firsts, from: Int(option.firstStart), count: Int(option.firstCount), word)
    }

    @inline(__always)
    static func contains(_ sorted: [Int32], from: Int, count: Int, _ word: Int32) -> Bool {
        if count <= 8 {
            for k in from..<(from + count) where sorted[k] == word { return true }
            return false
        }
        var lo = from, hi = from + count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if sorted[mid] < word { lo = mid + 1 } else { hi = mid }
        }
        return lo < from + count && sorted[lo] == word
    }

    private static func sortedIDs(_ words: Set<String>, _ tables: inout MatchTables) -> [Int32] {
        words.map { tables.words.id($0) }.sorted()
    }

    /// Lowers nodes back to front: a node's continuation is lowered first, so each node
    /// is emitted once with the index of the node after it.
    private struct Builder {
        var ops: [Op] = [.end]
        var words: [Int32] = []
        var options: [Option] = []
        var firsts: [Int32] = []

        mutating func lower(_ node: SentenceNode, next: Int32, tables: inout MatchTables) -> Int32 {
            switch node {
            case .words(let w, let chars):
                guard !w.isEmpty else { return next }
                let start = Int32(words.count)
                for word in w { words.append(tables.words.id(word)) }
                return emit(.words(start: start, count: Int32(w.count), chars: Int32(chars), next: next))
            case .sequence(let items):
                var entry = next
                for item in items.reversed() { entry = lower(item, next: entry, tables: &tables) }
                return entry
            case .alternative(let choices, let firstWords):
                var lowered: [Option] = []
                for (i, choice) in choices.enumerated() {
                    let target = lower(choice, next: next, tables: &tables)
                    guard let set = firstWords[i] else {
                        lowered.append(Option(target: target, firstStart: 0, firstCount: -1))
                        continue
                    }
                    let ids = MatchProgram.sortedIDs(set, &tables)
                    lowered.append(Option(target: target, firstStart: Int32(firsts.count), firstCount: Int32(ids.count)))
                    firsts += ids
                }
                let start = Int32(options.count)
                options += lowered
                return emit(.split(start: start, count: Int32(lowered.count)))
            case .list(let name, let slot):
                return emit(.list(list: tables.lists.id(name), slot: tables.slots.id(slot), next: next))
            }
        }

        private mutating func emit(_ op: Op) -> Int32 {
            ops.append(op)
            return Int32(ops.count - 1)
        }
    }
}
