import Foundation
import IntentBus

/// A dialog template with `${name}` placeholders, as in Apple's intent definitions:
/// `Sie haben ${balance} Guthaben.`
///
/// Pure value code: parsing and rendering touch no state.
public struct FormatString: Sendable {
    /// One placeholder: its name and the character offset of its `$` in the template.
    public struct Placeholder: Sendable, Equatable {
        public var name: String
        public var offset: Int
    }

    public let template: String

    public init(_ template: String) { self.template = template }

    /// The placeholders, in order. Throws at the first `${` without a closing `}` or
    /// with an empty or malformed name, giving the offset of its `$`.
    public func placeholders() throws(FormatStringError) -> [Placeholder] {
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
    public func render(_ values: [String: String]) -> (text: String, missing: [String]) {
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
public struct FormatStringError: Error, Sendable {
    /// Character offset of the `$` in the template.
    public let offset: Int
    public let message: String
}
