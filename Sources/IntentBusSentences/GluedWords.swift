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

    /// The split form (`glued`: words no template has, split), and a third form (`cut`:
    /// that, and template words cut where templates glue an affix to a list whose word the
    /// rest is, "الساعة" → "ال" "ساعة"); nil where nothing changed. Two forms, as a said
    /// text may need one template word cut and another ("الموجود") whole.
    static func split(_ tokens: [SentenceText.Token], ids: [Int32], text: String, tables: MatchTables,
                      listWords: Set<Int32>, affixes: GluedAffixes,
                      isValueWord: (String, Int32) -> Bool) -> (glued: [SentenceText.Token]?, cut: [SentenceText.Token]?) {
        var glued: [SentenceText.Token] = [], cut: [SentenceText.Token] = []
        var changed = false, cutChanged = false
        var budget = lookupBudget
        for (k, token) in tokens.enumerated() {
            var parts: [SentenceText.Token]?
            if budget > 0 {
                if ids[k] < 0 {
                    parts = split(token, text: text, tables: tables, listWords: listWords, budget: &budget)
                    if parts == nil, !affixes.isEmpty { parts = cutWildcardAffixes(token, text: text, affixes, budget: &budget) }
                } else if !affixes.isEmpty,
                          let pieces = cutValueAffixes(token, text: text, tables: tables, affixes, isValueWord: isValueWord, budget: &budget) {
                    cut += pieces
                    cutChanged = true
                    glued.append(token)
                    continue
                }
            }
            if let parts {
                glued += parts
                cut += parts
                changed = true
            } else {
                glued.append(token)
                cut.append(token)
            }
        }
        return (changed ? glued : nil, cutChanged ? cut : nil)
    }

    /// `token` cut at the character offsets `cuts` (0 and its length included), empty pieces dropped.
    private static func pieces(_ token: SentenceText.Token, _ chars: [Character], text: String, _ cuts: [Int]) -> [SentenceText.Token] {
        var result: [SentenceText.Token] = []
        for (a, b) in zip(cuts, cuts.dropFirst()) where a < b {
            let lo = text.index(token.range.lowerBound, offsetBy: a), hi = text.index(token.range.lowerBound, offsetBy: b)
            result.append(SentenceText.Token(key: String(chars[a..<b]), range: lo..<hi))
        }
        return result
    }

    /// The characters of `token`, when they are those of the said text (offsets agree).
    private static func characters(_ token: SentenceText.Token, text: String) -> [Character]? {
        let chars = Array(token.key)
        guard chars.count >= 2, chars.count <= maxLength, text[token.range].count == chars.count else { return nil }
        return chars
    }

    /// A word no template has, with what templates glue before or after a wildcard cut off
    /// (Hebrew "שzarbo" → "ש" "zarbo" for `[ש]{timer_name}`, Nepali "quintलाई" for
    /// `{item}लाई`): the longest such prefix, then the longest such suffix of the rest.
    static func cutWildcardAffixes(_ token: SentenceText.Token, text: String, _ affixes: GluedAffixes,
                                   budget: inout Int) -> [SentenceText.Token]? {
        guard !affixes.wildcardPrefixes.isEmpty || !affixes.wildcardSuffixes.isEmpty,
              let chars = characters(token, text: text) else { return nil }
        let n = chars.count
        var lo = 0, hi = n
        for length in stride(from: min(affixes.longest, n - 1), through: 1, by: -1) where budget > 0 {
            budget -= 1
            if affixes.wildcardPrefixes.contains(String(chars[0..<length])) { lo = length; break }
        }
        for length in stride(from: min(affixes.longest, n - 1 - lo), through: 1, by: -1) where budget > 0 {
            budget -= 1
            if affixes.wildcardSuffixes.contains(String(chars[(n - length)..<n])) { hi = n - length; break }
        }
        return lo > 0 || hi < n ? pieces(token, chars, text: text, [0, lo, hi, n]) : nil
    }

    /// A template word that is also what templates glue to a list value, cut there when
    /// the rest is a word of that list (Arabic "الساعة" → "ال" "ساعة" for `[ال]{timer_hour}`).
    static func cutValueAffixes(_ token: SentenceText.Token, text: String, tables: MatchTables, _ affixes: GluedAffixes,
                                isValueWord: (String, Int32) -> Bool, budget: inout Int) -> [SentenceText.Token]? {
        guard let first = token.key.first, let last = token.key.last,
              affixes.valuePrefixStarts.contains(first) || affixes.valueSuffixEnds.contains(last),
              let chars = characters(token, text: text) else { return nil }
        let n = chars.count, key = token.key
        // Substrings of the key, not Strings made of Characters (thousands of instructions each).
        func isValue(_ part: Substring, of lists: Set<String>) -> Bool {
            budget -= 1
            guard let id = tables.words.lookup(String(part)) else { return false }
            return lists.contains { isValueWord($0, id) }
        }
        for length in affixes.valuePrefixLengths where length < n && budget > 0 {
            budget -= 1
            let cut = key.index(key.startIndex, offsetBy: length)
            if let lists = affixes.valuePrefixes[String(key[..<cut])], isValue(key[cut...], of: lists) {
                return pieces(token, chars, text: text, [0, length, n])
            }
        }
        for length in affixes.valueSuffixLengths where length < n && budget > 0 {
            budget -= 1
            let cut = key.index(key.endIndex, offsetBy: -length)
            if let lists = affixes.valueSuffixes[String(key[cut...])], isValue(key[..<cut], of: lists) {
                return pieces(token, chars, text: text, [0, n - length, n])
            }
        }
        return nil
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
