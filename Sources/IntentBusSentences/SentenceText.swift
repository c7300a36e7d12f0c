import Foundation

/// How said text and template text become words: case folded, `’` read as `'`,
/// punctuation at the edges of words dropped, `-` and `_` as spaces, a number split from
/// a unit glued to it ("50%" → "50", "%"), each character of Chinese, Japanese and Thai a
/// word of its own (they write no spaces). With `foldDiacritics`, "Öffne" = "offne" and
/// `ß` = `ss` (the host's phrases have always compared so). Pure value code, any thread.
package struct SentenceText: Sendable {
    /// One word, folded, and where it stands in the original text.
    package struct Token: Sendable {
        package let key: String
        package let range: Range<String.Index>
    }

    package let text: String
    package let tokens: [Token]

    /// Characters dropped at the start and end of a word (hassil's punctuation, quotes).
    static let edgePunctuation: Set<Character> = [".", ",", "，", "。", "?", "¿", "？", "؟", "!", "¡", "！", ";", "；",
                                                  ":", "：", "…", "\"", "“", "”", "„", "«", "»", "‚", "‘", "(", ")"]

    package init(_ text: String, foldDiacritics: Bool = false) {
        self.text = text
        tokens = Self.tokenize(text, foldDiacritics: foldDiacritics)
    }

    /// The folded words of `text`.
    package static func words(_ text: String, foldDiacritics: Bool = false) -> [String] {
        tokenize(text, foldDiacritics: foldDiacritics).map(\.key)
    }

    static func fold(_ word: Substring, diacritics: Bool) -> String {
        var s = word.lowercased()
        // Foundation's replacing is a bridged call per word; most words have no ’.
        if s.utf8.contains(0xE2) { s = s.replacingOccurrences(of: "’", with: "'") }
        if diacritics {
            s = s.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil).replacingOccurrences(of: "ß", with: "ss")
        }
        return s
    }

    private static func tokenize(_ text: String, foldDiacritics: Bool) -> [Token] {
        var out: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, isSeparator(text[index]) { index = text.index(after: index) }
            guard index < text.endIndex else { break }
            var end = index
            while end < text.endIndex, !isSeparator(text[end]) { end = text.index(after: end) }
            // Chinese, Japanese and Thai write no spaces between words: each of their
            // characters is a word of its own (in templates and said text alike, so
            // "打开{name}" is 打 开 {name}); the text between them is worded as usual.
            var segment = index
            var at = index
            while at < end {
                let c = text[at]
                let next = text.index(after: at)
                if Self.isUnspaced(c) {
                    word(text, segment..<at, foldDiacritics: foldDiacritics, into: &out)
                    if c.isLetter || c.isNumber { out.append(Token(key: fold(text[at..<next], diacritics: foldDiacritics), range: at..<next)) }
                    segment = next
                }
                at = next
            }
            word(text, segment..<end, foldDiacritics: foldDiacritics, into: &out)
            index = end
        }
        return out
    }

    /// A run of characters without separators, its edge punctuation dropped.
    private static func word(_ text: String, _ range: Range<String.Index>, foldDiacritics: Bool, into out: inout [Token]) {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi, edgePunctuation.contains(text[lo]) { lo = text.index(after: lo) }
        while hi > lo, edgePunctuation.contains(text[text.index(before: hi)]) { hi = text.index(before: hi) }
        if lo < hi { split(text, lo..<hi, foldDiacritics: foldDiacritics, into: &out) }
    }

    /// A character of a script written without spaces between words (Han, kana, Thai),
    /// or the punctuation of those scripts (CJK symbols, fullwidth forms).
    static func isUnspaced(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value, v >= 0x0E00 else { return false }
        switch v {
        case 0x0E00...0x0E7F,            // Thai
             0x3000...0x30FF,            // CJK symbols and punctuation, hiragana, katakana
             0x31F0...0x31FF,            // katakana extensions
             0x3400...0x4DBF,            // CJK extension A
             0x4E00...0x9FFF,            // CJK unified ideographs
             0xF900...0xFAFF,            // CJK compatibility ideographs
             0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65,  // fullwidth punctuation
             0xFF66...0xFF9F,            // halfwidth katakana
             0x20000...0x3FFFF:          // CJK extensions B and later
            return true
        default:
            return false
        }
    }

    /// A number with a unit glued to it becomes two words; anything else stays one.
    private static func split(_ text: String, _ range: Range<String.Index>, foldDiacritics: Bool, into out: inout [Token]) {
        let word = text[range]
        if let first = word.first, first.isNumber {
            var cut = word.startIndex
            while cut < word.endIndex, word[cut].isNumber || ((word[cut] == "." || word[cut] == ",")
                    && word.index(after: cut) < word.endIndex && word[word.index(after: cut)].isNumber) {
                cut = word.index(after: cut)
            }
            if cut < word.endIndex, !word[cut].isLetter, word[cut] != "/" {
                out.append(Token(key: fold(word[..<cut], diacritics: foldDiacritics), range: range.lowerBound..<cut))
                out.append(Token(key: fold(word[cut...], diacritics: foldDiacritics), range: cut..<range.upperBound))
                return
            }
        }
        // "sensor's" → "sensor", "'s": templates write "<name>['s]", a list glued to a suffix.
        let key = fold(word, diacritics: foldDiacritics)
        if key.count > 2, key.hasSuffix("'s") {
            let cut = text.index(range.upperBound, offsetBy: -2)
            out.append(Token(key: String(key.dropLast(2)), range: range.lowerBound..<cut))
            out.append(Token(key: "'s", range: cut..<range.upperBound))
            return
        }
        out.append(Token(key: key, range: range))
    }

    private static func isSeparator(_ c: Character) -> Bool { c.isWhitespace || c == "-" || c == "_" }

    /// The original text of tokens `start..<end`, as said.
    package func said(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        return String(text[tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound])
    }
}
