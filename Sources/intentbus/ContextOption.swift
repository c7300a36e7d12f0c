import IntentBus
import IntentBusCLI

/// `--context key=value` (repeatable) of `send` and `say`: the request's context
/// (docs/protocol.md §4.1), such as the area a speaker stands in. Values are strings;
/// the host checks the limits (16 entries, keys up to 64 bytes, values up to 255).
enum ContextOption {
    static let spec = OptionSpec.repeated(
        "context", "key=value", "the request's context (repeatable): area=Kitchen, satellite=s1;\nphrases may require it, the plugin sees it")

    /// The context the options give, or nil when there is none.
    static func parse(_ args: Arguments) throws -> [String: JSON]? {
        var context: [String: JSON] = [:]
        for item in args.values("context") {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw UsageError("--context takes key=value, got \(item)")
            }
            context[String(item[..<eq])] = .string(String(item[item.index(after: eq)...]))
        }
        return context.isEmpty ? nil : context
    }
}
