/// The said words with skip words ("please", "can you") taken out, the ways hassil does:
/// anywhere, or only at the start or end when a template begins or ends with a wildcard
/// (a message may well contain "please").
struct SkipWords {
    let original: [SentenceText.Token]
    let removed: [SentenceText.Token]
    private let skip: [[String]]

    init(_ skip: [[String]], _ tokens: [SentenceText.Token]) {
        self.skip = skip
        original = tokens
        removed = skip.isEmpty ? tokens : Self.remove(skip, from: tokens, start: true, end: true)
    }

    /// The word sequences to try for a template with these edges, in hassil's order.
    func candidates(for edges: (first: String?, last: String?, only: Bool), isWildcard: (String?) -> Bool) -> [[SentenceText.Token]] {
        guard !skip.isEmpty else { return [original] }
        let changed = removed.count != original.count
        if edges.only, isWildcard(edges.first) { return [original] }
        if isWildcard(edges.first) { return [Self.remove(skip, from: original, start: false, end: true)] }
        if isWildcard(edges.last) { return [Self.remove(skip, from: original, start: true, end: false)] }
        return changed ? [original, removed] : [original]
    }

    /// `tokens` without skip phrases: anywhere (`start` and `end`), or repeatedly at one edge.
    static func remove(_ skip: [[String]], from tokens: [SentenceText.Token], start: Bool, end: Bool) -> [SentenceText.Token] {
        func matches(_ phrase: [String], _ tokens: ArraySlice<SentenceText.Token>, at i: Int) -> Bool {
            guard i >= tokens.startIndex, i + phrase.count <= tokens.endIndex else { return false }
            for (k, w) in phrase.enumerated() where tokens[i + k].key != w { return false }
            return true
        }
        if start && end {
            var out: [SentenceText.Token] = []
            var i = 0
            let all = tokens[...]
            outer: while i < tokens.count {
                for phrase in skip where matches(phrase, all, at: i) { i += phrase.count; continue outer }
                out.append(tokens[i])
                i += 1
            }
            return out
        }
        var slice = tokens[...]
        var changed = true
        while changed {
            changed = false
            for phrase in skip {
                if start, matches(phrase, slice, at: slice.startIndex) {
                    slice = slice.dropFirst(phrase.count); changed = true; break
                }
                if end, matches(phrase, slice, at: slice.endIndex - phrase.count) {
                    slice = slice.dropLast(phrase.count); changed = true; break
                }
            }
        }
        return Array(slice)
    }
}
