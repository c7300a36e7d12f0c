import Foundation

/// A dialog template with `${name}` placeholders, as in Apple's intent definitions:
/// `Sie haben ${balance} Guthaben.`
///
/// Pure value code: parsing and rendering touch no state.
package struct FormatString: Sendable {
    /// One placeholder: its name and the character offset of its `$` in the template.
    package struct Placeholder: Sendable, Equatable {
        package var name: String
        package var offset: Int
    }

    package let template: String

    package init(_ template: String) { self.template = template }

    /// The placeholders, in order. Throws at the first `${` without a closing `}` or
    /// with an empty or malformed name, giving the offset of its `$`.
    package func placeholders() throws(FormatStringError) -> [Placeholder] {
        var found: [Placeholder] = []
        let chars = Array(template)
        var i = 0
        while i < chars.count {
            if chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{" {
                guard let close = chars[(i + 2)...].firstIndex(of: "}") else {
                    throw FormatStringError(offset: i, message: "'${' has no closing '}'")
                }
                let name = String(chars[(i + 2)..<close])
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw FormatStringError(offset: i, message: "'${\(name)}' is not a placeholder; names are letters, digits and '_'")
                }
                found.append(Placeholder(name: name, offset: i))
                i = close + 1
            } else {
                i += 1
            }
        }
        return found
    }

    /// Fills every placeholder from `values`; a placeholder without a value becomes
    /// the empty string and is reported in `missing`.
    package func render(_ values: [String: String]) -> (text: String, missing: [String]) {
        prepared.render { values[$0] }
    }

    /// The template taken apart once, for a dialog rendered again and again (the legacy
    /// flow's response codes, prepared once per intent): `render` is this, so both read
    /// the template the same way.
    package var prepared: Prepared {
        var pieces: [Prepared.Piece] = []
        var literal = ""
        let chars = Array(template)
        var i = 0
        while i < chars.count {
            if chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{",
               let close = chars[(i + 2)...].firstIndex(of: "}") {
                if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
                pieces.append(.value(String(chars[(i + 2)..<close])))
                i = close + 1
            } else {
                literal.append(chars[i])
                i += 1
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return Prepared(pieces: pieces)
    }

    /// A template as its literal texts and placeholder names, in order.
    package struct Prepared: Sendable {
        enum Piece: Sendable {
            case text(String)
            case value(String)
        }
        let pieces: [Piece]

        /// Fills every placeholder with `value(name)`; one without a value becomes the
        /// empty string and is reported in `missing`.
        package func render(_ value: (String) -> String?) -> (text: String, missing: [String]) {
            if pieces.count == 1, case .value(let name) = pieces[0] {  // "${text}": no copy
                guard let text = value(name) else { return ("", [name]) }
                return (text, [])
            }
            var out = ""
            var missing: [String] = []
            for piece in pieces {
                switch piece {
                case .text(let text): out += text
                case .value(let name): if let text = value(name) { out += text } else { missing.append(name) }
                }
            }
            return (out, missing)
        }
    }
}

/// A malformed `${…}` in a format string.
package struct FormatStringError: Error, Sendable {
    /// Character offset of the `$` in the template.
    package let offset: Int
    package let message: String
}
