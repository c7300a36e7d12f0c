/// Parses one template line in hassil's syntax into a `SentenceExpression`.
///
/// Pure value code. Errors carry the line and column of the character at fault: the
/// template's own location (`at`, where its first character stands) plus the offset.
package struct TemplateParser {
    private let chars: [Character]
    private let origin: SentenceLocation
    private var index = 0

    /// Deepest nesting of groups one template may have: deeper is hostile, not a sentence.
    static let maxDepth = 32

    private init(_ text: String, at origin: SentenceLocation) {
        // By code point, not by grapheme: a combining mark after a bracket or a bar
        // ("(এর|ের)", "(യിലെ|ിലെ)") would otherwise join it into one Character and hide
        // the syntax. The text between is appended back into whole graphemes.
        chars = text.unicodeScalars.map(Character.init)
        self.origin = origin
    }

    /// Parses `text`, written at `origin`.
    package static func parse(_ text: String, at origin: SentenceLocation) throws(SentenceError) -> SentenceExpression {
        var parser = TemplateParser(text, at: origin)
        let expression = try parser.parseGroupBody(closing: nil, opened: origin, depth: 0)
        return expression
    }

    private func location(_ offset: Int) -> SentenceLocation { origin.advanced(by: offset) }

    /// Reads until `closing` (or the end, for the top level), splitting branches at `|`
    /// and permutation items at `;`.
    private mutating func parseGroupBody(closing: Character?, opened: SentenceLocation, depth: Int) throws(SentenceError) -> SentenceExpression {
        guard depth <= Self.maxDepth else {
            throw SentenceError(.malformed, at: opened, "groups nested deeper than \(Self.maxDepth)")
        }
        var segments: [[SentenceExpression]] = []   // split by ';', each a list of '|' branches
        var branches: [SentenceExpression] = []
        var items: [SentenceExpression.Item] = []
        var text = ""
        var previousEndedWithSpace = true

        func add(_ expression: SentenceExpression, startsWithSpace: Bool, endsWithSpace: Bool) {
            let glued = !items.isEmpty && !previousEndedWithSpace && !startsWithSpace
            items.append(.init(expression: expression, glued: glued))
            previousEndedWithSpace = endsWithSpace
        }
        func flushText() {
            guard !text.isEmpty else { return }
            add(.text(text), startsWithSpace: text.first!.isWhitespace, endsWithSpace: text.last!.isWhitespace)
            text = ""
        }
        func endBranch() {
            flushText()
            branches.append(items.count == 1 && !items[0].glued ? items[0].expression : .sequence(items))
            items = []
            previousEndedWithSpace = true
        }

        while index < chars.count {
            let c = chars[index]
            let here = location(index)
            switch c {
            case "\\":
                index += 1
                if index < chars.count { text.append(chars[index]); index += 1 }
            case "(", "[":
                flushText()
                index += 1
                let close: Character = c == "(" ? ")" : "]"
                var inner = try parseGroupBody(closing: close, opened: here, depth: depth + 1)
                if c == "[" {
                    if case .alternative(let options, _) = inner { inner = .alternative(options, optional: true) }
                    else { inner = .alternative([inner], optional: true) }
                }
                add(inner, startsWithSpace: false, endsWithSpace: false)
            case ")", "]":
                guard c == closing else {
                    throw SentenceError(.unbalanced, at: here, "\"\(c)\" without its opening \"\(c == ")" ? "(" : "[")\"")
                }
                index += 1
                endBranch()
                return Self.result(segments, branches)
            case "{", "<":
                flushText()
                let close: Character = c == "{" ? "}" : ">"
                guard let end = chars[(index + 1)...].firstIndex(of: close) else {
                    throw SentenceError(.unbalanced, at: here, "\"\(c)\" without its closing \"\(close)\"")
                }
                let body = String(chars[(index + 1)..<end]).trimmingSpaces()
                guard !body.isEmpty, !body.contains(where: { "(){}[]<>|;".contains($0) }) else {
                    throw SentenceError(.malformed, at: here, "\"\(c)\(body)\(close)\" is not a \(c == "{" ? "list" : "rule") name")
                }
                if c == "{" {
                    let parts = body.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces() }
                    let name = parts[0], slot = parts.count > 1 && !parts[1].isEmpty ? parts[1] : parts[0]
                    add(.list(name: name, slot: slot, at: here), startsWithSpace: false, endsWithSpace: false)
                } else {
                    add(.rule(name: body, at: here), startsWithSpace: false, endsWithSpace: false)
                }
                index = end + 1
            case "}", ">":
                throw SentenceError(.unbalanced, at: here, "\"\(c)\" without its opening \"\(c == "}" ? "{" : "<")\"")
            case "|":
                index += 1
                endBranch()
            case ";" where closing == ")":
                index += 1
                endBranch()
                segments.append(branches)
                branches = []
            default:
                text.append(c)
                index += 1
            }
        }
        if let closing {
            throw SentenceError(.unbalanced, at: opened, "\"\(closing == ")" ? "(" : "[")\" without its closing \"\(closing)\"")
        }
        endBranch()
        return Self.result(segments, branches)
    }

    private static func result(_ segments: [[SentenceExpression]], _ branches: [SentenceExpression]) -> SentenceExpression {
        let alternative: ([SentenceExpression]) -> SentenceExpression = { options in
            options.count == 1 ? options[0] : .alternative(options, optional: false)
        }
        if segments.isEmpty { return alternative(branches) }
        return .permutation((segments + [branches]).map(alternative))
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
