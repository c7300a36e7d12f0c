/// Said words in which a list value is glued to a template's word: hassil matches
/// characters, so `{area}n` (Basque "Ardovarn"), `[ال]{area}` (Arabic "الArdovar"),
/// `ב{area}` (Hebrew) or `{area}ets` (Swedish) match a value with letters glued to it;
/// IntentBus matches words. This is the said text's second form: every word no template
/// has, split into a list value's word with (possibly) a template word before and after
/// it ("ardovarn" → "ardovar" "n"), and a number glued to template words split from them
/// (Korean "1시간짜리" → "1" "시간짜리", Hebrew "ל20" → "ל" "20", Basque "%0era"). Templates are tried against both forms; the
/// template side needs nothing, as a glued run holding a list already compiles to words
/// around the list (SentenceCompiler).
enum GluedWords {
    /// Most characters of a word that is tried for a split (a split is O(length²) lookups
    /// at worst; a said text has at most 64 words).
    static let maxLength = 40
    /// Most word lookups the splits of one said text may make (hostile text: 64 long
    /// unknown words); when spent, the rest of the words stay as said.
    static let lookupBudget = 4_000

    /// `tokens` with the words that split split; nil when none does.
    static func split(_ tokens: [SentenceText.Token], ids: [Int32], text: String, tables: MatchTables,
                      listWords: Set<Int32>) -> [SentenceText.Token]? {
        var out: [SentenceText.Token] = []
        var changed = false
        var budget = lookupBudget
        for (k, token) in tokens.enumerated() {
            if ids[k] < 0, budget > 0, let parts = split(token, text: text, tables: tables, listWords: listWords, budget: &budget) {
                out += parts
                changed = true
            } else {
                out.append(token)
            }
        }
        return changed ? out : nil
    }

    private static func split(_ token: SentenceText.Token, text: String, tables: MatchTables,
                              listWords: Set<Int32>, budget: inout Int) -> [SentenceText.Token]? {
        let chars = Array(token.key)
        // Offsets in the folded key must be offsets in the said text.
        guard chars.count >= 2, chars.count <= maxLength, text[token.range].count == chars.count else { return nil }
        var left = budget
        defer { budget = left }
        func known(_ a: Int, _ b: Int) -> Int32? {
            guard left > 0 else { return nil }
            left -= 1
            return tables.words.lookup(String(chars[a..<b]))
        }
        func parts(_ cuts: [Int]) -> [SentenceText.Token] {
            var result: [SentenceText.Token] = []
            for (a, b) in zip(cuts, cuts.dropFirst()) where a < b {
                let lo = text.index(token.range.lowerBound, offsetBy: a), hi = text.index(token.range.lowerBound, offsetBy: b)
                result.append(SentenceText.Token(key: String(chars[a..<b]), range: lo..<hi))
            }
            return result
        }
        let n = chars.count
        // A number, with a template word glued before and/or after it ("ל20", "%0era").
        if let first = chars.firstIndex(where: \.isNumber), first == 0 || known(0, first) != nil {
            var cut = first
            while cut < n, chars[cut].isNumber || ((chars[cut] == "." || chars[cut] == ",") && cut + 1 < n && chars[cut + 1].isNumber) {
                cut += 1
            }
            if (cut == n && first > 0) || (cut < n && known(cut, n) != nil) { return parts([0, first, cut, n]) }
        }
        // The longest list word in the middle; what is before and after it empty or up to
        // three template words (Turkish "{name}[(ler|…)][(nın|…)][ki]": "lernınki").
        func segment(_ a: Int, _ b: Int, _ pieces: Int = 3) -> [Int]? {
            if a == b { return [] }
            guard pieces > 0 else { return nil }
            for cut in stride(from: b, to: a, by: -1) where known(a, cut) != nil {
                if let rest = segment(cut, b, pieces - 1) { return [cut] + rest }
            }
            return nil
        }
        var suffix = [[Int]?](repeating: nil, count: n + 1)
        suffix[n] = []
        for j in 1..<n { suffix[j] = segment(j, n) }
        var best: (i: Int, j: Int, prefix: [Int])?
        for i in 0..<n {
            guard let prefix = segment(0, i) else { continue }
            for j in stride(from: n, to: i, by: -1) where suffix[j] != nil && (i > 0 || j < n) {
                if let best, j - i <= best.j - best.i { break }
                if let id = known(i, j), listWords.contains(id) { best = (i, j, prefix); break }
            }
        }
        guard let best, let after = suffix[best.j] else { return nil }
        return parts([0] + best.prefix + [best.j] + after)
    }
}
