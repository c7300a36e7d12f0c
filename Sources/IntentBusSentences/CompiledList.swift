import IntentBusCore

/// A list ready for matching: plain values in a word trie (so "living room" is found by
/// walking the said words, not by trying every area), template values compiled.
struct CompiledList: Sendable {
    enum Kind: Sendable {
        case values(trie: WordTrie, templated: [(SentenceNode, Int)])
        case range(SlotRange)
        case wildcard
    }

    let kind: Kind
    let values: [SlotValue]

    init(_ list: SlotList, compiler: SentenceCompiler) throws(SentenceError) {
        switch list {
        case .range(let range):
            guard range.to >= range.from, range.step > 0, range.to - range.from <= SlotRange.maxSpan else {
                throw SentenceError(.malformed, at: SentenceLocation(file: "", line: 1, column: 1),
                                    "range \(range.from)…\(range.to) step \(range.step) is not a range (at most \(SlotRange.maxSpan) apart, step > 0)")
            }
            kind = .range(range)
            values = []
        case .wildcard:
            kind = .wildcard
            values = []
        case .values(let list):
            var trie = WordTrie()
            var templated: [(SentenceNode, Int)] = []
            for (index, value) in list.enumerated() {
                let node = try compiler.compile(value.input)
                if case .words(let words, _) = node, !words.isEmpty {
                    trie.insert(words, value: index)
                } else {
                    templated.append((node, index))
                }
            }
            kind = .values(trie: trie, templated: templated)
            values = list
        }
    }
}

/// Words → value indices, one word per level.
struct WordTrie: Sendable {
    private var children: [[String: Int]] = [[:]]
    private var terminals: [[Int]] = [[]]

    mutating func insert(_ words: [String], value: Int) {
        var node = 0
        for word in words {
            if let next = children[node][word] { node = next; continue }
            children.append([:])
            terminals.append([])
            children[node][word] = children.count - 1
            node = children.count - 1
        }
        terminals[node].append(value)
    }

    /// Every (end, value) for values said from `start` on in `words`.
    func matches(_ words: [SentenceText.Token], from start: Int, into out: inout [(Int, Int)]) {
        var node = 0
        var position = start
        while position < words.count, let next = children[node][words[position].key] {
            node = next
            position += 1
            for value in terminals[node] { out.append((position, value)) }
        }
    }
}
