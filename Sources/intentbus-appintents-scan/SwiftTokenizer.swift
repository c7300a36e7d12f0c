/// The tokens of Swift source the declaration scan needs: words, the punctuation that
/// opens and closes scopes, and compiler-directive lines; comments and string literals
/// (escapes, interpolations, multi-line and raw strings) are skipped whole, so that a
/// `struct` in a comment or a `{` in a string counts for nothing.
struct SwiftTokenizer {
    enum Token: Equatable {
        case word(String)
        case punctuation(Character)
        /// `#if COND`, `#elseif COND`, `#else`, `#endif`: the directive and its condition.
        case directive(String, String)
    }

    private let chars: [Character]
    private var i = 0

    init(_ source: String) { chars = Array(source) }

    /// Every token, in order.
    static func tokens(of source: String) -> [Token] {
        var tokenizer = SwiftTokenizer(source)
        var out: [Token] = []
        while let token = tokenizer.next() { out.append(token) }
        return out
    }

    private func peek(_ offset: Int = 0) -> Character? { i + offset < chars.count ? chars[i + offset] : nil }

    mutating func next() -> Token? {
        while i < chars.count {
            let c = chars[i]
            if c == "/" && peek(1) == "/" { skipLine(); continue }
            if c == "/" && peek(1) == "*" { skipBlockComment(); continue }
            if c == "\"" || (c == "#" && rawStringStarts()) { skipString(); continue }
            if c == "#", let directive = directive() { return directive }
            if c.isLetter || c == "_" || c == "`" {
                var word = ""
                while let d = peek(), d.isLetter || d.isNumber || d == "_" || d == "`" {
                    if d != "`" { word.append(d) }
                    i += 1
                }
                return .word(word)
            }
            i += 1
            if "{}()<>:;,.=@[]".contains(c) { return .punctuation(c) }
        }
        return nil
    }

    private mutating func skipLine() { while let c = peek(), c != "\n" { i += 1 } }

    private mutating func skipBlockComment() {
        var depth = 0
        while i < chars.count {
            if peek() == "/" && peek(1) == "*" { depth += 1; i += 2; continue }
            if peek() == "*" && peek(1) == "/" { depth -= 1; i += 2; if depth == 0 { return }; continue }
            i += 1
        }
    }

    private func rawStringStarts() -> Bool {
        var j = i
        while j < chars.count, chars[j] == "#" { j += 1 }
        return j < chars.count && chars[j] == "\""
    }

    /// Skips a string literal from its opening quote (or `#`s), interpolations included.
    private mutating func skipString() {
        var hashes = 0
        while peek() == "#" { hashes += 1; i += 1 }
        let multiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
        i += multiline ? 3 : 1
        while i < chars.count {
            let c = chars[i]
            if c == "\\" && hashesFollow(hashes, from: i + 1) {
                i += 1 + hashes
                if peek() == "(" { skipInterpolation() } else { i += 1 }
                continue
            }
            if c == "\"" {
                let quotes = multiline ? 3 : 1
                if (0..<quotes).allSatisfy({ peek($0) == "\"" }) && hashesFollow(hashes, from: i + quotes) {
                    i += quotes + hashes
                    return
                }
            }
            if c == "\n" && !multiline { return }  // an unterminated literal ends at the line
            i += 1
        }
    }

    private func hashesFollow(_ count: Int, from j: Int) -> Bool {
        (0..<count).allSatisfy { j + $0 < chars.count && chars[j + $0] == "#" }
    }

    /// Skips `(…)` of an interpolation, with the strings and parentheses inside it.
    private mutating func skipInterpolation() {
        var depth = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\"" || (c == "#" && rawStringStarts()) { skipString(); continue }
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1; if depth == 0 { i += 1; return } }
            i += 1
        }
    }

    /// `#if`, `#elseif`, `#else`, `#endif` with the rest of the line (comments dropped); nil
    /// for any other `#` (`#available`, `#file`, …), which is skipped.
    private mutating func directive() -> Token? {
        var j = i + 1
        var name = ""
        while j < chars.count, chars[j].isLetter { name.append(chars[j]); j += 1 }
        guard ["if", "elseif", "else", "endif"].contains(name) else {
            i = j
            return nextWordAfterHash(name)
        }
        var rest = ""
        while j < chars.count, chars[j] != "\n" {
            if chars[j] == "/" && j + 1 < chars.count && (chars[j + 1] == "/" || chars[j + 1] == "*") { break }
            rest.append(chars[j]); j += 1
        }
        i = j
        skipLine()
        return .directive(name, rest.trimmingCharacters(in: .whitespaces))
    }

    private func nextWordAfterHash(_ name: String) -> Token? { name.isEmpty ? .punctuation("#") : .word("#" + name) }
}

import Foundation
