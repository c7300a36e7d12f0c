import IntentBusCore

/// Compiled templates with their lists: what `match` runs against. A value; replacing a
/// list (`setList`) recompiles that list only.
package struct SentenceIndex: Sendable {
    /// One template ready to walk, with what its block says (a class: the match loop
    /// looks at every template, and copying one would retain each field).
    final class CompiledSentence: Sendable {
        let program: MatchProgram
        /// The words any match must contain, as numbers (`MatchTables.words`).
        let required: [Int32]
        let text: String
        let location: SentenceLocation
        let order: Int
        /// The lists at the very start and end (hassil's wildcard-edge skip-word rule).
        let edges: (first: Int32?, last: Int32?, only: Bool)
        let block: IntentTemplates.Block
        /// The block's own lists by list number (nil: the block has none).
        let blockLists: [CompiledList?]?
        /// Whether the template names a list: only then can the split forms of the said
        /// words (GluedWords) match it where the said form does not.
        let hasLists: Bool

        init(node: SentenceNode, text: String, location: SentenceLocation, order: Int,
             block: IntentTemplates.Block, blockLists: [CompiledList?]?, tables: inout MatchTables) {
            program = MatchProgram(node, tables: &tables)
            required = node.requiredWords.sorted().map { tables.words.id($0) }
            self.text = text
            self.location = location
            self.order = order
            let edges = node.edgeLists
            self.edges = (edges.first.map { tables.lists.id($0) }, edges.last.map { tables.lists.id($0) }, edges.only)
            self.block = block
            self.blockLists = blockLists
            hasLists = program.ops.contains { if case .list = $0 { return true }; return false }
        }

        /// The list `id` as this template sees it: its block's own, else the index's.
        @inline(__always)
        func list(_ id: Int32, _ lists: [CompiledList?]) -> CompiledList? {
            if let own = blockLists, Int(id) < own.count, let list = own[Int(id)] { return list }
            return Int(id) < lists.count ? lists[Int(id)] : nil
        }
    }

    let sentences: [CompiledSentence]
    /// The prefilter, inverted: the templates under the rarest word each requires (by word
    /// number), and those that require none. A said text walks only the rows of its words,
    /// not every template.
    let byWord: [[Int32]]
    let requireNothing: [Int32]
    /// The index's lists by list number (nil: a dynamic list not filled yet).
    private(set) var lists: [CompiledList?]
    /// Words, list and slot names, numbered.
    private(set) var tables: MatchTables
    let skipWords: [[String]]
    /// The words of every list's plain values, where GluedWords may split a said word.
    private(set) var listWords: Set<Int32> = []
    /// What templates glue right before or after a list (GluedWords cuts it off said words).
    let affixes: GluedAffixes
    let compiler: SentenceCompiler
    /// The slot whose real value makes a match better (hassil's `best_slot_name`; HA: "name").
    package var preferredSlot: String?
    package let foldDiacritics: Bool

    /// Most steps one sentence template's match may take: past it the template counts
    /// as not matching, so no text keeps the caller busy.
    package static let stepBudget = 20_000
    /// Most words said text may have.
    package static let maxWords = 64

    /// Compiles `templates`. `dynamicLists` names lists that will be filled later
    /// (`setList`): referring to them is not an error, and until filled they match nothing.
    package init(_ templates: IntentTemplates, dynamicLists: Set<String> = [], preferredSlot: String? = nil,
                foldDiacritics: Bool = false) throws(SentenceError) {
        self.foldDiacritics = foldDiacritics
        self.preferredSlot = preferredSlot
        var names = Set(templates.lists.keys).union(dynamicLists)
        for block in templates.blocks { names.formUnion(block.lists.keys) }
        let compiler = SentenceCompiler(rules: templates.rules, listNames: names, foldDiacritics: foldDiacritics)
        self.compiler = compiler
        affixes = GluedAffixes(templates, foldDiacritics: foldDiacritics)
        // A rule that refers to itself is an error at load, used or not. (A shared rule may
        // name a rule only some blocks define, so unknown names are checked per sentence.)
        for name in templates.rules.keys.sorted() {
            do { _ = try compiler.compile(.rule(name: name, at: templates.rules[name]!.location)) } catch {
                if error.code == .recursiveRule { throw error }
            }
        }
        // Every list name is numbered first (sorted, so the numbering is the same at
        // every load); words and slots as the templates and values are lowered.
        var tables = MatchTables()
        for name in names.sorted() { _ = tables.lists.id(name) }
        var lists = [CompiledList?](repeating: nil, count: tables.lists.count)
        for (name, list) in templates.lists.sorted(by: { $0.key < $1.key }) {
            lists[Int(tables.lists.id(name))] = try CompiledList(list, compiler: compiler, tables: &tables)
        }
        self.lists = lists
        var listWords = Set(lists.flatMap { $0?.plainWords ?? [] })
        var sentences: [CompiledSentence] = []
        for block in templates.blocks {
            let local = SentenceCompiler(rules: templates.rules.merging(block.rules) { _, n in n }, listNames: names,
                                         foldDiacritics: foldDiacritics)
            var own: [CompiledList?]?
            if !block.lists.isEmpty {
                var compiled = [CompiledList?](repeating: nil, count: tables.lists.count)
                for (name, list) in block.lists.sorted(by: { $0.key < $1.key }) {
                    compiled[Int(tables.lists.id(name))] = try CompiledList(list, compiler: local, tables: &tables)
                }
                own = compiled
                for list in compiled { listWords.formUnion(list?.plainWords ?? []) }
            }
            for sentence in block.sentences {
                let node = try local.compile(sentence.expression)
                sentences.append(CompiledSentence(node: node, text: sentence.text, location: sentence.location,
                                                  order: sentences.count, block: block, blockLists: own, tables: &tables))
            }
        }
        self.sentences = sentences
        self.tables = tables
        self.listWords = listWords
        var uses = [Int](repeating: 0, count: tables.words.count)
        for sentence in sentences { for id in sentence.required { uses[Int(id)] += 1 } }
        var byWord = [[Int32]](repeating: [], count: tables.words.count), requireNothing: [Int32] = []
        for (i, sentence) in sentences.enumerated() {
            if let rarest = sentence.required.min(by: { (uses[Int($0)], $0) < (uses[Int($1)], $1) }) {
                byWord[Int(rarest)].append(Int32(i))
            } else {
                requireNothing.append(Int32(i))
            }
        }
        self.byWord = byWord
        self.requireNothing = requireNothing
        skipWords = templates.skipWords.map { SentenceText.words($0, foldDiacritics: foldDiacritics) }.filter { !$0.isEmpty }
            .sorted { $0.count > $1.count }
    }

    /// Replaces (or adds) the list `name`: a plugin's entities changed, a list was refreshed.
    package mutating func setList(_ name: String, _ list: SlotList) throws(SentenceError) {
        var tables = self.tables
        let id = Int(tables.lists.id(name))
        let compiled = try CompiledList(list, compiler: compiler, tables: &tables)
        self.tables = tables
        if id >= lists.count { lists += [CompiledList?](repeating: nil, count: id + 1 - lists.count) }
        lists[id] = compiled
        listWords.formUnion(compiled.plainWords)
    }

    /// How many sentence templates are loaded.
    package var count: Int { sentences.count }

    /// Every match of `text`, best first (see `SentenceMatch` for the order), at most one
    /// per template. `context` is the request's (area, satellite, language, …).
    package func match(_ text: String, context: [String: JSON] = [:], limit: Int = 16) -> [SentenceMatch] {
        let said = SentenceText(text, foldDiacritics: foldDiacritics)
        guard !said.tokens.isEmpty, said.tokens.count <= Self.maxWords else { return [] }
        var alternatives = [SkipWords(skipWords, said.tokens, tables: tables)]
        // A list value glued to a template's word ("Ardovarn" for `{area}n`): a second form.
        let split = GluedWords.split(said.tokens, ids: alternatives[0].forms[0].ids, text: said.text, tables: tables,
                                     listWords: listWords, affixes: affixes, isValueWord: isValueWord)
        for form in [split.glued, split.cut] {
            if let form, form.count <= Self.maxWords { alternatives.append(SkipWords(skipWords, form, tables: tables)) }
        }
        // The prefilter: a bit per word of the templates, set for the words said.
        var present = [UInt64](repeating: 0, count: tables.words.count / 64 + 1)
        var candidates = requireNothing
        for forms in alternatives {
            for id in forms.forms[0].ids where id >= 0 && present[Int(id) >> 6] & (1 << UInt64(id & 63)) == 0 {
                present[Int(id) >> 6] |= 1 << UInt64(id & 63)
                if Int(id) < byWord.count { candidates += byWord[Int(id)] }  // a word only a later `setList` brought is no template's
            }
        }
        candidates.sort()  // load order, as every template was once walked (the result does not depend on it)
        var matcher = SentenceMatcher(said: said, lists: lists, slotNames: tables.slots.names, context: context,
                                      preferredSlot: preferredSlot)
        var found: [(rank: SentenceMatch.Rank, match: SentenceMatch)] = []
        for candidate in candidates {
            let sentence = sentences[Int(candidate)]
            guard sentence.required.allSatisfy({ present[Int($0) >> 6] & (1 << UInt64($0 & 63)) != 0 }) else { continue }
            if !context.isEmpty {
                guard SentenceContext.allows(sentence.block.requiresContext, context, allowMissing: true),
                      SentenceContext.excludes(sentence.block.excludesContext, context) else { continue }
            }
            var best: (rank: SentenceMatch.Rank, match: SentenceMatch)?
            let edges = sentence.edges
            for forms in alternatives.prefix(sentence.hasLists ? alternatives.count : 1) {
                for form in forms.candidates(firstIsWildcard: isWildcard(edges.first), lastIsWildcard: isWildcard(edges.last),
                                             only: edges.only) {
                    let words = forms.forms[form]
                    if let first = sentence.program.start, let word = words.ids.first,
                       !MatchProgram.contains(first, from: 0, count: first.count, word) { continue }
                    if let m = matcher.best(sentence, words), best.map({ m.rank < $0.rank }) ?? true { best = m }
                }
            }
            if let best { found.append(best) }
        }
        found.sort { $0.rank < $1.rank }
        return found.prefix(limit).map { $0.match }
    }

    /// Whether the word `word` is one the index's list `name` may say.
    private func isValueWord(_ name: String, _ word: Int32) -> Bool {
        guard let id = tables.lists.lookup(name), Int(id) < lists.count, let list = lists[Int(id)] else { return false }
        return list.plainWords.contains(word)
    }

    private func isWildcard(_ id: Int32?) -> Bool {
        guard let id, Int(id) < lists.count, let list = lists[Int(id)], case .wildcard = list.kind else { return false }
        return true
    }
}
