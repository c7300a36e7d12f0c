import Foundation

/// How spoken-style text is compared: case, diacritics, punctuation and whitespace do
/// not count ("Öffne „Website“ in FocusFlow!" and "offne website in focusflow" are the
/// same words). Pure value code, any thread.
package enum PhraseText {
    /// The words of `text`, lower-cased and folded: diacritics removed (ö → o, é → e),
    /// `ß` → `ss`, every run of characters that are not letters or digits a separator.
    package static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
            .replacingOccurrences(of: "ß", with: "ss")
        var words: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// One word of a said text: its folded form, and where it stands in the original.
    package struct Token {
        package let key: String
        package let range: Range<String.Index>
    }

    /// The words of `text` with their places in it, so that a slot can hand on what was
    /// said as it was written ("Café Müller", not "cafe muller").
    package static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var start: String.Index?
        var index = text.startIndex
        func flush(_ end: String.Index) {
            guard let s = start else { return }
            let key = words(String(text[s..<end])).joined()
            if !key.isEmpty { tokens.append(Token(key: key, range: s..<end)) }
            start = nil
        }
        while index < text.endIndex {
            let isWordCharacter = text[index].unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || CharacterSet.nonBaseCharacters.contains($0) }
            if isWordCharacter {
                if start == nil { start = index }
            } else {
                flush(index)
            }
            index = text.index(after: index)
        }
        flush(text.endIndex)
        return tokens
    }

    /// `words(text)` joined by single spaces: the key a phrase is stored and compared by.
    package static func normalised(_ text: String) -> String { words(text).joined(separator: " ") }

    /// Whether `needle` occurs in `haystack` as a run of whole words.
    package static func contains(_ haystack: [String], run needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return true
        }
        return false
    }
}
