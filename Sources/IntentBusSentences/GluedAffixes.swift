/// The template words glued right before or after a list (`[ש]{timer_name}`, `[ال]{timer_hour}`,
/// `{item}लाई`), found at load, so that `GluedWords` can cut them off a said word where
/// its general split does not: a wildcard has no words to split at (Hebrew "שzarbo" for
/// `[ש]{timer_name}`), and a said word that is itself a template word is never split
/// (Arabic "الساعة" is a word of some templates and `[ال]{timer_hour}` with "ساعة" in others).
struct GluedAffixes: Sendable {
    /// Last words of what is glued before a wildcard / first words of what is glued after one.
    private(set) var wildcardPrefixes: Set<String> = []
    private(set) var wildcardSuffixes: Set<String> = []
    /// The same for a list of values (or a range, or a dynamic list), with the lists each is glued to.
    private(set) var valuePrefixes: [String: Set<String>] = [:]
    private(set) var valueSuffixes: [String: Set<String>] = [:]
    /// The longest affix, in characters: a said word is cut at most this far from its ends.
    private(set) var longest = 0
    /// The first characters of the value prefixes and the last of the value suffixes: most
    /// said template words start and end with neither, and are not looked at further.
    private(set) var valuePrefixStarts: Set<Character> = []
    private(set) var valueSuffixEnds: Set<Character> = []
    /// The lengths the value prefixes and suffixes have, longest first (a word is cut only at those).
    private(set) var valuePrefixLengths: [Int] = []
    private(set) var valueSuffixLengths: [Int] = []

    /// Most affixes of one kind kept (hostile templates: the cut tries each length once, so
    /// this bounds memory only).
    static let maxAffixes = 4_096

    var isEmpty: Bool { longest == 0 }

    init() {}

    /// The affixes of every template of `templates`.
    init(_ templates: IntentTemplates, foldDiacritics: Bool) {
        for block in templates.blocks {
            let rules = block.rules.isEmpty ? templates.rules : templates.rules.merging(block.rules) { _, n in n }
            var walker = Walker(rules: rules, isWildcard: { name in
                if case .wildcard? = block.lists[name] ?? templates.lists[name] { return true }
                return false
            }, fold: foldDiacritics)
            for sentence in block.sentences { walker.walk(sentence.expression, depth: 0) }
            for (key, set) in walker.found { add(set, wildcard: key.wildcard, prefix: key.prefix, list: key.list) }
        }
    }

    private mutating func add(_ words: Set<String>, wildcard: Bool, prefix: Bool, list: String) {
        for word in words where !word.isEmpty {
            switch (wildcard, prefix) {
            case (true, true): if wildcardPrefixes.count < Self.maxAffixes { wildcardPrefixes.insert(word) } else { continue }
            case (true, false): if wildcardSuffixes.count < Self.maxAffixes { wildcardSuffixes.insert(word) } else { continue }
            case (false, true):
                guard valuePrefixes.count < Self.maxAffixes else { continue }
                valuePrefixes[word, default: []].insert(list)
                valuePrefixStarts.insert(word.first!)
                if !valuePrefixLengths.contains(word.count) { valuePrefixLengths.append(word.count); valuePrefixLengths.sort(by: >) }
            case (false, false):
                guard valueSuffixes.count < Self.maxAffixes else { continue }
                valueSuffixes[word, default: []].insert(list)
                valueSuffixEnds.insert(word.last!)
                if !valueSuffixLengths.contains(word.count) { valueSuffixLengths.append(word.count); valueSuffixLengths.sort(by: >) }
            }
            longest = max(longest, word.count)
        }
    }

    private struct Key: Hashable { let wildcard: Bool; let prefix: Bool; let list: String }

    /// Walks templates and the rules they name (each rule once), noting the glued neighbours of lists.
    private struct Walker {
        let rules: [String: IntentTemplates.Sentence]
        let isWildcard: (String) -> Bool
        let fold: Bool
        var seen: Set<String> = []
        var found: [Key: Set<String>] = [:]

        init(rules: [String: IntentTemplates.Sentence], isWildcard: @escaping (String) -> Bool, fold: Bool) {
            self.rules = rules
            self.isWildcard = isWildcard
            self.fold = fold
        }

        mutating func walk(_ expression: SentenceExpression, depth: Int) {
            guard depth < TemplateParser.maxDepth else { return }
            switch expression {
            case .text, .list: break
            case .rule(let name, _):
                guard let rule = rules[name], seen.insert(name).inserted else { return }
                walk(rule.expression, depth: depth + 1)
            case .alternative(let items, _), .permutation(let items):
                for item in items { walk(item, depth: depth + 1) }
            case .sequence(let items):
                for item in items { walk(item.expression, depth: depth + 1) }
                for (k, item) in items.enumerated() {
                    guard case .list(let name, _, _) = item.expression else { continue }
                    let wildcard = isWildcard(name)
                    // Glued before: the glued run up to the list.
                    if item.glued, k > 0 {
                        var start = k - 1
                        while start > 0, items[start].glued, !holdsList(items[start - 1].expression) { start -= 1 }
                        note(Array(items[start..<k]), wildcard: wildcard, prefix: true, list: name)
                    }
                    // Glued after: the glued run from the list on, to the next list.
                    if k + 1 < items.count, items[k + 1].glued {
                        var end = k + 1
                        while end < items.count, items[end].glued, !holdsList(items[end].expression) { end += 1 }
                        if end > k + 1 { note(Array(items[(k + 1)..<end]), wildcard: wildcard, prefix: false, list: name) }
                    }
                }
            }
        }

        private mutating func note(_ items: [SentenceExpression.Item], wildcard: Bool, prefix: Bool, list: String) {
            let run = SentenceExpression.sequence(items.enumerated().map { .init(expression: $0.element.expression, glued: $0.offset > 0) })
            guard let spelled = SentenceExpansion(rules: rules, limit: SentenceCompiler.maxGluedSpellings).spell(run) else { return }
            let key = Key(wildcard: wildcard, prefix: prefix, list: wildcard ? "" : list)
            var words = found[key, default: []]
            for text in spelled {
                let w = SentenceText.words(text, foldDiacritics: fold)
                if let word = prefix ? w.last : w.first { words.insert(word) }
            }
            found[key] = words
        }

        private func holdsList(_ expression: SentenceExpression) -> Bool {
            var lists: [(String, SentenceLocation)] = []
            expression.lists(into: &lists)
            return !lists.isEmpty
        }
    }
}
