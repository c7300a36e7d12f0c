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
        var out = ""
        var missing: [String] = []
        let chars = Array(template)
        var i = 0
        while i < chars.count {
            if chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{",
               let close = chars[(i + 2)...].firstIndex(of: "}") {
                let name = String(chars[(i + 2)..<close])
                if let value = values[name] { out += value } else { missing.append(name) }
                i = close + 1
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return (out, missing)
    }
}

/// A malformed `${…}` in a format string.
package struct FormatStringError: Error, Sendable {
    /// Character offset of the `$` in the template.
    package let offset: Int
    package let message: String
}
