/// Turns parsed templates into `SentenceNode`s, checking every reference: an unknown
/// list or rule, or a rule that refers to itself, is an error at its file:line:col.
package struct SentenceCompiler: Sendable {
    let rules: [String: IntentTemplates.Sentence]
    let listNames: Set<String>
    let foldDiacritics: Bool

    /// Most orders one permutation may expand to (5 items: 120).
    static let maxPermutationItems = 5
    /// Most words a glued run ("light[s]") may spell out.
    package static let maxGluedSpellings = 4_096

    func compile(_ expression: SentenceExpression) throws(SentenceError) -> SentenceNode {
        var active: [String] = []
        return try compile(expression, active: &active)
    }

    private func compile(_ expression: SentenceExpression, active: inout [String]) throws(SentenceError) -> SentenceNode {
        switch expression {
        case .text(let text):
            let words = SentenceText.words(text, foldDiacritics: foldDiacritics)
            return .words(words, chars: words.reduce(0) { $0 + $1.count } + max(words.count - 1, 0))
        case .list(let name, let slot, let at):
            guard listNames.contains(name) else { throw SentenceError(.unknownList, at: at, "unknown list {\(name)}") }
            return .list(name: name, slot: slot)
        case .rule(let name, let at):
            guard let rule = rules[name] else { throw SentenceError(.unknownRule, at: at, "unknown expansion rule <\(name)>") }
            guard !active.contains(name) else {
                throw SentenceError(.recursiveRule, at: at, "expansion rule <\(name)> refers to itself (\((active + [name]).map { "<\($0)>" }.joined(separator: " → ")))")
            }
            active.append(name)
            defer { active.removeLast() }
            return try compile(rule.expression, active: &active)
        case .alternative(let options, let optional):
            var nodes: [SentenceNode] = []
            for option in options { nodes.append(try compile(option, active: &active)) }
            if optional { nodes.append(.sequence([])) }
            return SentenceNode.choice(nodes)
        case .permutation(let items):
            guard items.count <= Self.maxPermutationItems else {
                throw SentenceError(.malformed, at: firstLocation(expression), "a permutation of \(items.count) items (at most \(Self.maxPermutationItems))")
            }
            var nodes: [SentenceNode] = []
            for item in items { nodes.append(try compile(item, active: &active)) }
            return SentenceNode.choice(Self.orders(of: nodes.indices.map { $0 }).map { order in .sequence(order.map { nodes[$0] }) })
        case .sequence(let items):
            var nodes: [SentenceNode] = []
            var index = 0
            while index < items.count {
                var end = index + 1
                while end < items.count, items[end].glued { end += 1 }
                // Within a glued run, the longest stretches that spell out finitely become
                // whole words; an item holding a list stands on its own.
                var start = index
                while start < end {
                    var stop = start
                    var spelled: [String]? = nil
                    while stop < end, let next = spellings(items[start...stop].map(\.expression)[...], active: &active) {
                        spelled = next
                        stop += 1
                    }
                    if let spelled, stop - start > 1 {
                        nodes.append(SentenceNode.choice(spelled.map { text -> SentenceNode in
                            let words = SentenceText.words(text, foldDiacritics: foldDiacritics)
                            return .words(words, chars: words.reduce(0) { $0 + $1.count } + max(words.count - 1, 0))
                        }))
                    } else {
                        stop = max(stop, start + 1)
                        for item in items[start..<stop] { nodes.append(try compile(item.expression, active: &active)) }
                    }
                    start = stop
                }
                index = end
            }
            return nodes.count == 1 ? nodes[0] : .sequence(nodes)
        }
    }

    /// Every text a run of glued items can spell, or nil when one holds a list (not finite)
    /// or there are too many.
    private func spellings(_ run: ArraySlice<SentenceExpression>, active: inout [String]) -> [String]? {
        var out = [""]
        for expression in run {
            guard let part = spellings(expression, active: &active), out.count * part.count <= Self.maxGluedSpellings else { return nil }
            out = out.flatMap { prefix in part.map { prefix + $0 } }
        }
        return Array(Set(out)).sorted()
    }

    private func spellings(_ expression: SentenceExpression, active: inout [String]) -> [String]? {
        switch expression {
        case .text(let t): return [t]
        case .list: return nil
        case .rule(let name, _):
            guard let rule = rules[name], !active.contains(name) else { return nil }
            active.append(name)
            defer { active.removeLast() }
            return spellings(rule.expression, active: &active)
        case .alternative(let options, let optional):
            var out: [String] = optional ? [""] : []
            for option in options {
                guard let s = spellings(option, active: &active) else { return nil }
                out += s
            }
            return out.count <= Self.maxGluedSpellings ? out : nil
        case .permutation: return nil
        case .sequence(let items): return spellings(items.map(\.expression)[...], active: &active)
        }
    }

    private func firstLocation(_ expression: SentenceExpression) -> SentenceLocation {
        var lists: [(String, SentenceLocation)] = [], rules: [(String, SentenceLocation)] = []
        expression.lists(into: &lists)
        expression.rules(into: &rules)
        return (lists + rules).map(\.1).min { ($0.line, $0.column) < ($1.line, $1.column) } ?? SentenceLocation(file: "", line: 1, column: 1)
    }

    /// Every order of `items` (Heap's algorithm would do; the counts are tiny).
    static func orders(of items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i -> [[Int]] in
            var rest = items
            let head = rest.remove(at: i)
            return orders(of: rest).map { [head] + $0 }
        }
    }
}

extension SentenceExpression {
    /// Every text this expression can be said as, when it names no list and there are at
    /// most `limit` (a fixture's name "(TV|television)" → "TV", "television").
    package func spellings(rules: [String: IntentTemplates.Sentence] = [:], limit: Int = SentenceCompiler.maxGluedSpellings) -> [String]? {
        SentenceExpansion(rules: rules, limit: limit).spell(self)
    }
}

/// Spells out finite expressions, word-wise (items joined as written).
struct SentenceExpansion {
    let rules: [String: IntentTemplates.Sentence]
    let limit: Int

    func spell(_ expression: SentenceExpression, depth: Int = 0) -> [String]? {
        guard depth < TemplateParser.maxDepth else { return nil }
        switch expression {
        case .text(let t): return [t]
        case .list: return nil
        case .rule(let name, _):
            guard let rule = rules[name] else { return nil }
            return spell(rule.expression, depth: depth + 1)
        case .alternative(let options, let optional):
            var out: [String] = optional ? [""] : []
            for option in options {
                guard let s = spell(option, depth: depth + 1) else { return nil }
                out += s
                if out.count > limit { return nil }
            }
            return out
        case .permutation(let items):
            return spell(.sequence(items.map { .init(expression: $0, glued: false) }), depth: depth + 1)
        case .sequence(let items):
            var out = [""]
            for item in items {
                guard let part = spell(item.expression, depth: depth + 1), out.count * part.count <= limit else { return nil }
                out = out.flatMap { p in part.map { p + (item.glued || p.isEmpty ? "" : " ") + $0 } }
            }
            return out.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        }
    }
}
