/// The said words with skip words ("please", "can you") taken out, the ways hassil does:
/// anywhere, or only at the start or end when a template begins or ends with a wildcard
/// (a message may well contain "please").
struct SkipWords {
    /// The said words in the forms a template may be tried against, worked out once per
    /// said text: as said, without skip words anywhere, without them at the end only (a
    /// template that starts with a wildcard), at the start only (one that ends with one).
    let forms: [SaidWords]

    init(_ skip: [[String]], _ tokens: [SentenceText.Token], tables: MatchTables) {
        let said = SaidWords(tokens: tokens, ids: tables.ids(tokens))
        guard !skip.isEmpty else { forms = [said]; return }
        func form(start: Bool, end: Bool) -> SaidWords {
            let kept = Self.remove(skip, from: tokens, start: start, end: end)
            return kept.count == tokens.count ? said : SaidWords(tokens: kept, ids: tables.ids(kept))
        }
        forms = [said, form(start: true, end: true), form(start: false, end: true), form(start: true, end: false)]
    }

    /// Which `forms` to try for a template with these edges, in hassil's order.
    func candidates(firstIsWildcard: Bool, lastIsWildcard: Bool, only: Bool) -> Range<Int> {
        guard forms.count > 1 else { return 0..<1 }
        if only, firstIsWildcard { return 0..<1 }
        if firstIsWildcard { return 2..<3 }
        if lastIsWildcard { return 3..<4 }
        return forms[1].tokens.count != forms[0].tokens.count ? 0..<2 : 0..<1
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

/// Said words with their numbers (`MatchTables.ids`).
struct SaidWords {
    let tokens: [SentenceText.Token]
    let ids: [Int32]
}
