/// A plugin's `exec` value before its program is resolved to a path: either a string
/// split like a simple shell command line, or a list `[program, argument, …]`.
struct ExecCommandLine: Equatable {
    var program: String
    var arguments: [String]

    /// Splits `text` on whitespace. Double quotes group words (`--name "A B"`), and
    /// may sit inside a word (`--name="A B"`); inside them `\"` and `\\` are escapes.
    /// No other shell syntax: no single quotes, variables or globs.
    ///
    /// - Returns: the words, or a message when a quote is left open.
    static func split(_ text: String) -> Result<[String], SplitError> {
        var words: [String] = []
        var current = ""
        var inWord = false
        var inQuotes = false
        var escaping = false
        for character in text {
            if inQuotes {
                if escaping {
                    // Only \" and \\ are escapes; keep any other backslash as written.
                    if character != "\"" && character != "\\" { current.append("\\") }
                    current.append(character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else if character == "\"" {
                    inQuotes = false
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inQuotes { return .failure(.unterminatedQuote) }
        if inWord { words.append(current) }
        return .success(words)
    }

    enum SplitError: Error { case unterminatedQuote }
}

extension ExecCommandLine: YAMLDecodable {
    static var yamlExpectation: String { "a command (a string, or a list [program, argument, …])" }

    static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> ExecCommandLine? {
        let words: [String]
        switch node.content {
        case .scalar where !node.isNull:
            switch split(node.scalar?.text ?? "") {
            case .success(let split): words = split
            case .failure:
                context.error("unterminated double quote in the command line", at: node.mark)
                return nil
            }
        case .sequence:
            guard let list = [String].decode(node, in: context) else { return nil }
            words = list
        default:
            context.typeMismatch(expected: "a string or a list", got: node)
            return nil
        }
        guard let program = words.first, !program.isEmpty else {
            context.error("the command is empty; give the plugin's executable", at: node.mark)
            return nil
        }
        return ExecCommandLine(program: program, arguments: Array(words.dropFirst()))
    }
}
