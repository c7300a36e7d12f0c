import Foundation
import IntentBus

/// A result body as a person reads it, for `send` and `say` without `--json`: a
/// string as itself, an object as `key: value` lines (nested ones indented), a list as
/// `- item` lines. What the CLI shows elsewhere is left out: `dialog` (printed first),
/// `view` (the snippet, `SnippetActions.show`), and an empty body is nothing at all.
enum HumanText {
    /// Keys the CLI shows in its own way.
    static let shownElsewhere: Set<String> = ["dialog", "view"]

    static func render(_ body: JSON) -> String {
        var lines: [String] = []
        append(body, indent: "", to: &lines, top: true)
        return lines.joined(separator: "\n")
    }

    private static func append(_ value: JSON, indent: String, to lines: inout [String], top: Bool = false) {
        switch value {
        case .object(let fields):
            for key in fields.keys.sorted() where !(top && shownElsewhere.contains(key)) {
                let field = fields[key]!
                if let text = scalar(field) {
                    lines.append("\(indent)\(key): \(text)")
                } else {
                    lines.append("\(indent)\(key):")
                    append(field, indent: indent + "  ", to: &lines)
                }
            }
        case .array(let items):
            for item in items {
                if let text = scalar(item) {
                    lines.append("\(indent)- \(text)")
                } else {
                    lines.append("\(indent)-")
                    append(item, indent: indent + "  ", to: &lines)
                }
            }
        default:
            lines.append(indent + (scalar(value) ?? value.canonicalString))
        }
    }

    /// A value that fits on its line: text, a number, a truth value, nothing, and an
    /// empty list or object.
    private static func scalar(_ value: JSON) -> String? {
        switch value {
        case .object(let o) where o.isEmpty: "{}"
        case .array(let a) where a.isEmpty: "(none)"
        case .object, .array: nil
        case .null: "(none)"
        case .string(let s): s
        default: value.displayText
        }
    }
}
