import IntentBusCore

/// One template against one said text: a depth-first walk over the compiled template
/// with explicit continuations, trying every way (alternatives, list values, wildcard
/// lengths) and keeping the best complete match. A step budget bounds the walk.
///
/// The walk only goes forward over the words and list values come from a trie, so a
/// template's cost is about its alternatives that fit the words said; templates whose
/// required words are missing are never walked (`SentenceIndex.match`).
struct SentenceMatcher {
    /// What is left to match after the current node: the rest of a sequence, or the end
    /// of a templated list value (which then becomes a slot).
    final class Frame {
        enum Kind {
            case rest([SentenceNode], Int)
            case endValue(slot: String, value: SlotValue, start: Int, literal: Int)
        }
        let kind: Kind
        let next: Frame?
        init(_ kind: Kind, _ next: Frame?) { self.kind = kind; self.next = next }
    }

    let said: SentenceText
    let tokens: [SentenceText.Token]
    let lists: [String: CompiledList]
    let sentence: SentenceIndex.CompiledSentence
    var context: [String: JSON]
    /// A slot filled on the current path. Its text is cut from the said text only when
    /// the path completes (`finish`): most captures are undone by a later mismatch, and
    /// making a String for each cost more than the walk (callgrind, docs/sentences.md).
    private struct Capture {
        let slot: String
        /// The value, when it is not the words as said (a list value's output, a number).
        let value: JSON?
        let start: Int
        let end: Int
        let isWildcard: Bool
    }
    private var captures: [Capture] = []
    private var literal = 0
    private var budget = SentenceIndex.stepBudget
    private var found: SentenceMatch?
    private var preferredSlot: String?

    init(said: SentenceText, tokens: [SentenceText.Token], lists: [String: CompiledList],
         sentence: SentenceIndex.CompiledSentence, context: [String: JSON]) {
        self.said = said
        self.tokens = tokens
        self.lists = lists
        self.sentence = sentence
        self.context = context
    }

    /// The best complete match of the template, or nil.
    mutating func best(preferredSlot: String?) -> SentenceMatch? {
        self.preferredSlot = preferredSlot
        run(sentence.node, 0, nil)
        return found
    }

    private func text(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        return String(said.text[tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound])
    }

    private mutating func run(_ node: SentenceNode, _ pos: Int, _ next: Frame?) {
        budget -= 1
        guard budget > 0 else { return }
        switch node {
        case .words(let words, let chars):
            guard pos + words.count <= tokens.count else { return }
            for (k, w) in words.enumerated() where tokens[pos + k].key != w { return }
            literal += chars
            proceed(pos + words.count, next)
            literal -= chars
        case .sequence(let items):
            guard let first = items.first else { return proceed(pos, next) }
            run(first, pos, items.count == 1 ? next : Frame(.rest(items, 1), next))
        case .alternative(let options, let firsts):
            let word = pos < tokens.count ? tokens[pos].key : nil
            for (i, option) in options.enumerated() {
                if let first = firsts[i], !Self.has(first, word) { continue }
                run(option, pos, next)
            }
        case .list(let name, let slot):
            guard pos < tokens.count, let list = sentence.blockLists?[name] ?? lists[name] else { return }
            switch list.kind {
            case .values(let trie, let templated):
                var hits: [(Int, Int)] = []
                trie.matches(tokens, from: pos, into: &hits)
                for (end, i) in hits.reversed() {
                    fill(slot, list.values[i], start: pos, end: end, next)
                }
                for (valueNode, i) in templated where fits(list.values[i]) {
                    run(valueNode, pos, Frame(.endValue(slot: slot, value: list.values[i], start: pos, literal: literal), next))
                }
            case .range(let range):
                guard let value = range.value(for: tokens[pos].key) else { return }
                capture(Capture(slot: slot, value: value, start: pos, end: pos + 1, isWildcard: false), next)
            case .wildcard:
                for end in (pos + 1)...tokens.count {
                    capture(Capture(slot: slot, value: nil, start: pos, end: end, isWildcard: true), next)
                    guard budget > 0 else { return }
                }
            }
        }
    }

    /// Whether `word` is one of an alternative's first words. Most such sets hold a few
    /// words, and comparing a few short strings costs less than hashing the word for a
    /// Set lookup (String hashing was 15 % of matching, callgrind on de).
    @inline(__always)
    private static func has(_ first: Set<String>, _ word: String?) -> Bool {
        guard let word else { return false }
        return first.count <= 6 ? first.contains { $0 == word } : first.contains(word)
    }

    /// Whether a list value may be said in this block (its context against the block's conditions).
    private func fits(_ value: SlotValue) -> Bool {
        value.context.isEmpty || (SentenceContext.allows(sentence.block.requiresContext, value.context, allowMissing: true)
                                  && SentenceContext.excludes(sentence.block.excludesContext, value.context))
    }

    private mutating func fill(_ slot: String, _ value: SlotValue, start: Int, end: Int, _ next: Frame?) {
        guard fits(value) else { return }
        let filled = Capture(slot: slot, value: value.output, start: start, end: end, isWildcard: false)
        guard !value.context.isEmpty else { return capture(filled, next) }  // most values: no context to add
        let saved = context
        context.merge(value.context) { _, new in new }
        capture(filled, next)
        context = saved
    }

    private mutating func capture(_ filled: Capture, _ next: Frame?) {
        captures.append(filled)
        proceed(filled.end, next)
        captures.removeLast()
    }

    private mutating func proceed(_ pos: Int, _ next: Frame?) {
        guard let frame = next else { return finish(pos) }
        switch frame.kind {
        case .rest(let items, let i):
            run(items[i], pos, i + 1 == items.count ? frame.next : Frame(.rest(items, i + 1), frame.next))
        case .endValue(let slot, let value, let start, let literalAtStart):
            // A list value's own words are not the template's literal text (hassil).
            let saved = literal
            literal = literalAtStart
            fill(slot, value, start: start, end: pos, frame.next)
            literal = saved
        }
    }

    private mutating func finish(_ pos: Int) {
        guard pos == tokens.count, SentenceContext.excludes(sentence.block.excludesContext, context),
              let fromContext = SentenceContext.copiedSlots(sentence.block.requiresContext, context) else { return }
        var slots: [String: SentenceMatch.Slot] = [:]
        for c in captures {
            let words = text(c.start, c.end)
            slots[c.slot] = SentenceMatch.Slot(value: c.value ?? .string(words), text: words, isWildcard: c.isWildcard)
        }
        for (name, value) in sentence.block.slots where slots[name] == nil {
            slots[name] = SentenceMatch.Slot(value: value, text: "", isWildcard: false)
        }
        for (name, slot) in fromContext where slots[name] == nil { slots[name] = slot }
        let match = SentenceMatch(intent: sentence.block.intent, slots: slots, context: context, response: sentence.block.response,
                                  owner: sentence.block.owner, template: sentence.text, location: sentence.location,
                                  literalCharacters: literal, order: sentence.order)
        if let current = found, current.rank(preferredSlot: preferredSlot) <= match.rank(preferredSlot: preferredSlot) { return }
        found = match
    }
}
