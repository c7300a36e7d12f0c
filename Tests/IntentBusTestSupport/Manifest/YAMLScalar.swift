import IntentBus

/// How the manifest builder writes a string as a YAML scalar: plain where YAML reads it
/// back as the same string, double-quoted (with escapes) otherwise.
package enum YAMLScalar {
    /// Words YAML 1.1 or 1.2 would read as a boolean or null instead of a string.
    private static let specialWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]
    private static let indicators: Set<Character> = ["-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|",
                                                     ">", "'", "\"", "%", "@", "`"]

    /// `text` as a scalar: plain when that is safe, else double-quoted.
    package static func render(_ text: String) -> String { isPlainSafe(text) ? text : quoted(text) }

    /// `text` always double-quoted, for values that must stay strings (`env` values such
    /// as `"1"` or `"off"`). A JSON string is a YAML double-quoted scalar with the same
    /// escapes, so the JSON writer's is used.
    package static func quoted(_ text: String) -> String { JSON.string(text).canonicalString }

    /// `[a, b]`, each item a scalar.
    package static func flowList(_ items: [String]) -> String { "[" + items.map(render).joined(separator: ", ") + "]" }

    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.first, let last = text.last, first != " ", last != " " else { return false }
        if indicators.contains(first) || specialWords.contains(text.lowercased()) { return false }
        if text.contains(": ") || text.contains(" #") || text.hasSuffix(":") { return false }
        if text.contains(",") || text.contains("[") || text.contains("]") || text.contains("{") || text.contains("}") {
            return false  // flow indicators: these end an item inside `[…]`
        }
        if Double(text) != nil { return false }
        return text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
