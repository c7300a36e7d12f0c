import IntentBusCore

/// Templates against one said text: a depth-first walk over a template's `MatchProgram`,
/// trying every way (alternatives, list values, wildcard lengths) and keeping the best
/// complete match. A step budget bounds each template's walk.
///
/// The walk only goes forward over the words and list values come from a trie, so a
/// template's cost is about its alternatives that fit the words said; templates whose
/// required words are missing are never walked (`SentenceIndex.match`). One matcher serves
/// every template of a said text: what it fills on the way (captured slots, the stack of
/// list values being said, trie hits) lives in arrays it keeps, so a step allocates
/// nothing, and words, lists and slots are numbers (docs/sentences.md, speed and memory).
struct SentenceMatcher {
    /// A slot filled on the current path, as numbers. The slot's text and value are made
    /// only when the path completes (`finish`): most captures are undone by a later mismatch.
    private struct Capture {
        enum Kind { case value, range, wildcard }
        let kind: Kind
        let slot: Int32
        /// The list (its number) and, for `.value`, which of its values.
        let list: Int32
        let value: Int32
        let start: Int32
        let end: Int32
    }

    /// A templated list value being said: where to go on when its template ends.
    private struct Return {
        let program: MatchProgram
        let next: Int32
        let list: CompiledList
        let listID: Int32
        let slot: Int32
        let value: Int32
        let start: Int32
        let literal: Int32
    }

    private let said: SentenceText
    private let lists: [CompiledList?]
    private let slotNames: [String]
    private let requestContext: [String: JSON]
    private let preferredSlot: String?
    private var sentence: SentenceIndex.CompiledSentence?
    private var tokens: [SentenceText.Token] = []
    private var ids: [Int32] = []
    private var context: [String: JSON]
    private var captures: [Capture] = []
    private var returns: [Return] = []
    private var hits: [(end: Int32, value: Int32)] = []
    private var literal: Int32 = 0
    private var budget = 0
    private var found: (rank: SentenceMatch.Rank, match: SentenceMatch)?

    init(said: SentenceText, lists: [CompiledList?], slotNames: [String], context: [String: JSON], preferredSlot: String?) {
        self.said = said
        self.lists = lists
        self.slotNames = slotNames
        requestContext = context
        self.context = context
        self.preferredSlot = preferredSlot
        captures.reserveCapacity(16)
        returns.reserveCapacity(4)
        hits.reserveCapacity(32)
    }

    /// The best complete match of `sentence` against `words`, with its rank, or nil.
    mutating func best(_ sentence: SentenceIndex.CompiledSentence, _ words: SaidWords) -> (rank: SentenceMatch.Rank, match: SentenceMatch)? {
        self.sentence = sentence
        tokens = words.tokens
        ids = words.ids
        context = requestContext
        literal = 0
        budget = SentenceIndex.stepBudget
        found = nil
        run(sentence.program, sentence.program.entry, 0)
        return found
    }

    /// Walks on from node `at` of `program` at word `pos`; straight runs of words loop
    /// here, a split or a list recurses once per way on.
    private mutating func run(_ program: MatchProgram, _ at: Int32, _ pos: Int) {
        let literalAtStart = literal
        defer { literal = literalAtStart }
        var at = Int(at), pos = pos
        while true {
            budget -= 1
            guard budget > 0 else { return }
            switch program.ops[at] {
            case .words(let start, let count, let chars, let next):
                let n = Int(count)
                guard pos + n <= ids.count else { return }
                for k in 0..<n where ids[pos + k] != program.words[Int(start) + k] { return }
                literal += chars
                pos += n
                at = Int(next)
            case .split(let start, let count):
                let word: Int32 = pos < ids.count ? ids[pos] : -1
                for i in Int(start)..<Int(start + count) {
                    let option = program.options[i]
                    if option.firstCount >= 0, word < 0 || !program.allows(option, word) { continue }
                    run(program, option.target, pos)
                }
                return
            case .list(let id, let slot, let next):
                return list(id, slot, program, next, pos)
            case .end:
                guard let back = returns.popLast() else { return finish(pos) }
                // A list value's own words are not the template's literal text (hassil).
                literal = back.literal
                fill(back.list, back.listID, back.slot, back.value, start: Int(back.start), end: pos, back.program, back.next)
                returns.append(back)
                return
            }
        }
    }

    private mutating func list(_ id: Int32, _ slot: Int32, _ program: MatchProgram, _ next: Int32, _ pos: Int) {
        guard pos < ids.count, let sentence, let list = sentence.list(id, lists) else { return }
        switch list.kind {
        case .values(let trie, let templated):
            let base = hits.count
            trie.matches(ids, from: pos, into: &hits)
            var k = hits.count
            while k > base {  // the longest value first, as the trie found them reversed
                k -= 1
                let hit = hits[k]
                fill(list, id, slot, hit.value, start: pos, end: Int(hit.end), program, next)
            }
            hits.removeSubrange(base...)
            for value in templated where fits(list, value.value) {
                returns.append(Return(program: program, next: next, list: list, listID: id, slot: slot, value: value.value,
                                      start: Int32(pos), literal: literal))
                run(value.program, value.program.entry, pos)
                returns.removeLast()
            }
        case .range(let range):
            guard range.value(for: tokens[pos].key) != nil else { return }
            capture(Capture(kind: .range, slot: slot, list: id, value: 0, start: Int32(pos), end: Int32(pos + 1)), program, next)
        case .wildcard:
            for end in (pos + 1)...ids.count {
                capture(Capture(kind: .wildcard, slot: slot, list: id, value: 0, start: Int32(pos), end: Int32(end)), program, next)
                guard budget > 0 else { return }
            }
        }
    }

    /// Whether a list value may be said in this block (its context against the block's conditions).
    private func fits(_ list: CompiledList, _ value: Int32) -> Bool {
        guard list.hasContext[Int(value)], let block = sentence?.block else { return true }
        let context = list.values[Int(value)].context
        return SentenceContext.allows(block.requiresContext, context, allowMissing: true)
            && SentenceContext.excludes(block.excludesContext, context)
    }

    private mutating func fill(_ list: CompiledList, _ id: Int32, _ slot: Int32, _ value: Int32, start: Int, end: Int,
                               _ program: MatchProgram, _ next: Int32) {
        guard fits(list, value) else { return }
        let filled = Capture(kind: .value, slot: slot, list: id, value: value, start: Int32(start), end: Int32(end))
        guard list.hasContext[Int(value)] else { return capture(filled, program, next) }  // most values: no context to add
        let saved = context
        context.merge(list.values[Int(value)].context) { _, new in new }
        capture(filled, program, next)
        context = saved
    }

    private mutating func capture(_ filled: Capture, _ program: MatchProgram, _ next: Int32) {
        captures.append(filled)
        run(program, next, Int(filled.end))
        captures.removeLast()
    }

    private func text(_ start: Int32, _ end: Int32) -> String {
        guard start < end else { return "" }
        return String(said.text[tokens[Int(start)].range.lowerBound..<tokens[Int(end) - 1].range.upperBound])
    }

    private mutating func finish(_ pos: Int) {
        guard pos == ids.count, let sentence, SentenceContext.excludes(sentence.block.excludesContext, context),
              let fromContext = SentenceContext.copiedSlots(sentence.block.requiresContext, context) else { return }
        var slots: [String: SentenceMatch.Slot] = [:]
        for c in captures {
            let words = text(c.start, c.end)
            var value = JSON.string(words)
            switch c.kind {
            case .value:
                if let output = sentence.list(c.list, lists)?.values[Int(c.value)].output { value = output }
            case .range:
                if case .range(let range)? = sentence.list(c.list, lists)?.kind, let number = range.value(for: tokens[Int(c.start)].key) {
                    value = number
                }
            case .wildcard: break
            }
            slots[slotNames[Int(c.slot)]] = SentenceMatch.Slot(value: value, text: words, isWildcard: c.kind == .wildcard)
        }
        for (name, value) in sentence.block.slots where slots[name] == nil {
            slots[name] = SentenceMatch.Slot(value: value, text: "", isWildcard: false)
        }
        for (name, slot) in fromContext where slots[name] == nil { slots[name] = slot }
        let match = SentenceMatch(intent: sentence.block.intent, slots: slots, context: context, response: sentence.block.response,
                                  owner: sentence.block.owner, template: sentence.text, location: sentence.location,
                                  literalCharacters: Int(literal), order: sentence.order)
        let rank = match.rank(preferredSlot: preferredSlot)
        if let current = found, current.rank <= rank { return }
        found = (rank, match)
    }
}
