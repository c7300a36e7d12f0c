import IntentBusCore

/// A list ready for matching: plain values in a word trie (so "living room" is found by
/// walking the said words, not by trying every area), template values compiled. A class:
/// the walk looks a list up at every list node, and a reference costs one retain.
final class CompiledList: Sendable {
    /// A value said as a template ("(closed|shut)"), walked like a sentence's part.
    struct Templated: Sendable {
        let program: MatchProgram
        let value: Int32
    }

    enum Kind: Sendable {
        case values(trie: WordTrie, templated: [Templated])
        case range(SlotRange)
        case wildcard
    }

    let kind: Kind
    let values: [SlotValue]
    /// Whether value i carries context (checked against the block, added to the match's).
    let hasContext: [Bool]
    /// Every word the values may say (GluedWords splits said words at them).
    let plainWords: Set<Int32>

    init(_ list: SlotList, compiler: SentenceCompiler, tables: inout MatchTables) throws(SentenceError) {
        switch list {
        case .range(let range):
            guard range.to >= range.from, range.step > 0, range.to - range.from <= SlotRange.maxSpan else {
                throw SentenceError(.malformed, at: SentenceLocation(file: "", line: 1, column: 1),
                                    "range \(range.from)…\(range.to) step \(range.step) is not a range (at most \(SlotRange.maxSpan) apart, step > 0)")
            }
            kind = .range(range)
            values = []
            hasContext = []
            plainWords = []
        case .wildcard:
            kind = .wildcard
            values = []
            hasContext = []
            plainWords = []
        case .values(let list):
            var plain: [(words: [Int32], value: Int)] = []
            var templated: [Templated] = []
            var words: Set<Int32> = []
            for (index, value) in list.enumerated() {
                let node = try compiler.compile(value.input)
                if case .words(let w, _) = node, !w.isEmpty {
                    plain.append((w.map { tables.words.id($0) }, index))
                } else {
                    templated.append(Templated(program: MatchProgram(node, tables: &tables), value: Int32(index)))
                }
                for word in node.allWords { words.insert(tables.words.id(word)) }
            }
            kind = .values(trie: WordTrie(plain), templated: templated)
            values = list
            hasContext = list.map { !$0.context.isEmpty }
            plainWords = words
        }
    }
}

extension SentenceNode {
    /// Every word this node may say (what lists say aside).
    var allWords: Set<String> {
        switch self {
        case .words(let w, _): return Set(w)
        case .sequence(let items), .alternative(let items, _): return items.reduce(into: Set<String>()) { $0.formUnion($1.allWords) }
        case .list: return []
        }
    }
}
