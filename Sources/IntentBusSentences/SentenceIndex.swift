import IntentBusCore

/// Compiled templates with their lists: what `match` runs against. A value; replacing a
/// list (`setList`) recompiles that list only.
public struct SentenceIndex: Sendable {
    /// One template ready to walk, with what its block says (a class: the match loop
    /// looks at every template, and copying one would retain each field).
    final class CompiledSentence: Sendable {
        let node: SentenceNode
        /// The words any match must contain, as indices into the index's vocabulary.
        let required: [Int]
        /// The words a match can start with (nil: anything), checked before walking.
        let first: Set<String>?
        let text: String
        let location: SentenceLocation
        let order: Int
        let edges: (first: String?, last: String?, only: Bool)
        let block: IntentTemplates.Block
        let blockLists: [String: CompiledList]?

        init(node: SentenceNode, required: [Int], text: String, location: SentenceLocation, order: Int,
             block: IntentTemplates.Block, blockLists: [String: CompiledList]?) {
            self.node = node
            self.required = required
            first = node.firstWords
            self.text = text
            self.location = location
            self.order = order
            edges = node.edgeLists
            self.block = block
            self.blockLists = blockLists
        }
    }

    let sentences: [CompiledSentence]
    private(set) var lists: [String: CompiledList]
    /// Every required word, numbered: the prefilter tests bits, not strings.
    let vocabulary: [String: Int]
    let skipWords: [[String]]
    let compiler: SentenceCompiler
    /// The slot whose real value makes a match better (hassil's `best_slot_name`; HA: "name").
    public var preferredSlot: String?
    public let foldDiacritics: Bool

    /// Most steps one sentence template's match may take: past it the template counts
    /// as not matching, so no text keeps the caller busy.
    public static let stepBudget = 20_000
    /// Most words said text may have.
    public static let maxWords = 64

    /// Compiles `templates`. `dynamicLists` names lists that will be filled later
    /// (`setList`): referring to them is not an error, and until filled they match nothing.
    public init(_ templates: IntentTemplates, dynamicLists: Set<String> = [], preferredSlot: String? = nil,
                foldDiacritics: Bool = false) throws(SentenceError) {
        self.foldDiacritics = foldDiacritics
        self.preferredSlot = preferredSlot
        var names = Set(templates.lists.keys).union(dynamicLists)
        for block in templates.blocks { names.formUnion(block.lists.keys) }
        let compiler = SentenceCompiler(rules: templates.rules, listNames: names, foldDiacritics: foldDiacritics)
        self.compiler = compiler
        // A rule that refers to itself is an error at load, used or not. (A shared rule may
        // name a rule only some blocks define, so unknown names are checked per sentence.)
        for name in templates.rules.keys.sorted() {
            do { _ = try compiler.compile(.rule(name: name, at: templates.rules[name]!.location)) } catch {
                if error.code == .recursiveRule { throw error }
            }
        }
        var lists: [String: CompiledList] = [:]
        for (name, list) in templates.lists { lists[name] = try CompiledList(list, compiler: compiler) }
        self.lists = lists
        var compiledSentences: [(SentenceNode, IntentTemplates.Sentence, IntentTemplates.Block, [String: CompiledList]?)] = []
        for block in templates.blocks {
            let local = SentenceCompiler(rules: templates.rules.merging(block.rules) { _, n in n }, listNames: names,
                                         foldDiacritics: foldDiacritics)
            var compiled: [String: CompiledList]?
            if !block.lists.isEmpty {
                compiled = [:]
                for (name, list) in block.lists { compiled?[name] = try CompiledList(list, compiler: local) }
            }
            for sentence in block.sentences {
                compiledSentences.append((try local.compile(sentence.expression), sentence, block, compiled))
            }
        }
        var vocabulary: [String: Int] = [:]
        var sentences: [CompiledSentence] = []
        for (node, sentence, block, compiled) in compiledSentences {
            let required = node.requiredWords.sorted().map { word -> Int in
                if let id = vocabulary[word] { return id }
                vocabulary[word] = vocabulary.count
                return vocabulary.count - 1
            }
            sentences.append(CompiledSentence(node: node, required: required, text: sentence.text, location: sentence.location,
                                              order: sentences.count, block: block, blockLists: compiled))
        }
        self.vocabulary = vocabulary
        self.sentences = sentences
        skipWords = templates.skipWords.map { SentenceText.words($0, foldDiacritics: foldDiacritics) }.filter { !$0.isEmpty }
            .sorted { $0.count > $1.count }
    }

    /// Replaces (or adds) the list `name`: a plugin's entities changed, a list was refreshed.
    public mutating func setList(_ name: String, _ list: SlotList) throws(SentenceError) {
        lists[name] = try CompiledList(list, compiler: compiler)
    }

    /// How many sentence templates are loaded.
    public var count: Int { sentences.count }

    /// Every match of `text`, best first (see `SentenceMatch` for the order), at most one
    /// per template. `context` is the request's (area, satellite, language, …).
    public func match(_ text: String, context: [String: JSON] = [:], limit: Int = 16) -> [SentenceMatch] {
        let said = SentenceText(text, foldDiacritics: foldDiacritics)
        guard !said.tokens.isEmpty, said.tokens.count <= Self.maxWords else { return [] }
        let variants = SkipWords(skipWords, said.tokens)
        var present = [UInt64](repeating: 0, count: vocabulary.count / 64 + 1)
        for token in said.tokens { if let id = vocabulary[token.key] { present[id >> 6] |= 1 << UInt64(id & 63) } }
        var found: [SentenceMatch] = []
        for sentence in sentences where sentence.required.allSatisfy({ present[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }) {
            if !context.isEmpty {
                guard SentenceContext.allows(sentence.block.requiresContext, context, allowMissing: true),
                      SentenceContext.excludes(sentence.block.excludesContext, context) else { continue }
            }
            var best: SentenceMatch?
            for tokens in variants.candidates(for: sentence.edges, isWildcard: isWildcard) {
                if let first = sentence.first, let word = tokens.first?.key, !first.contains(word) { continue }
                var run = SentenceMatcher(said: said, tokens: tokens, lists: lists, sentence: sentence, context: context)
                if let m = run.best(preferredSlot: preferredSlot),
                   best.map({ m.rank(preferredSlot: preferredSlot) < $0.rank(preferredSlot: preferredSlot) }) ?? true {
                    best = m
                }
            }
            if let best { found.append(best) }
        }
        found.sort { $0.rank(preferredSlot: preferredSlot) < $1.rank(preferredSlot: preferredSlot) }
        return Array(found.prefix(limit))
    }

    private func isWildcard(_ name: String?) -> Bool {
        guard let name, let list = lists[name], case .wildcard = list.kind else { return false }
        return true
    }
}
