import Foundation
import IntentBus

/// Answers the host's prompts: from `--answer` values first, then, on a terminal, by
/// asking the person.
final class Prompter {
    private var answers: [String: String]
    /// Whether the last answer to a confirmation of the intent as a whole (not of one
    /// parameter) was no. A declined parameter confirmation only asks for the value again.
    private(set) var declinedIntentConfirmation = false
    private let interactive: Bool
    /// Asked while the person has not answered: the request has ended meanwhile
    /// (`IntentClient.requestEnded`).
    var requestEnded: (() -> Bool)?
    /// Suggested entities for an entity parameter (`ib.entities`, query `suggested`),
    /// fetched on a socket of its own so the request in progress is not disturbed.
    private let suggestions: (String) -> [JSON]

    init(answers: [String: String], interactive: Bool, suggestions: @escaping (String) -> [JSON] = { _ in [] }) {
        self.answers = answers
        self.interactive = interactive
        self.suggestions = suggestions
    }

    /// The ANSWER body for `prompt`, or nil when there is no answer.
    func answer(_ prompt: Prompt) -> JSON? {
        let body = answerBody(prompt)
        if PromptKind(rawValue: prompt.kind) == .confirmation, prompt.parameter == nil, let value = body?["value"]?.boolValue {
            declinedIntentConfirmation = !value
        }
        return body
    }

    private func answerBody(_ prompt: Prompt) -> JSON? {
        let key: String
        switch PromptKind(rawValue: prompt.kind) {
        case .pluginChoice?: key = "plugin"
        case .confirmation?: key = prompt.parameter ?? "confirm"
        default: key = prompt.parameter ?? prompt.kind
        }
        if let given = answers.removeValue(forKey: key) {
            return scripted(prompt, given)
        }
        guard interactive else {
            printError("the host asks: \(prompt.dialog.isEmpty ? "(\(prompt.kind))" : prompt.dialog)")
            printError("(not a terminal: answer it with --answer \(key)=…)")
            return nil
        }
        return ask(prompt)
    }

    /// Turns an `--answer` value into the ANSWER body.
    private func scripted(_ prompt: Prompt, _ given: String) -> JSON {
        switch PromptKind(rawValue: prompt.kind) {
        case .confirmation?:
            return ["value": .bool(YesNoWords.answer(given) ?? (given == "1"))]
        case .disambiguation?, .pluginChoice?:
            var value = given
            var remember = "once"
            if PromptKind(rawValue: prompt.kind) == .pluginChoice, let colon = given.lastIndex(of: ":") {
                remember = String(given[given.index(after: colon)...])
                value = String(given[..<colon])
            }
            // A number picks the option by position, as on a terminal.
            if let n = Int(value), n >= 1, n <= prompt.options.count {
                value = prompt.options[n - 1]["id"]?.displayText ?? value
            }
            var body: [String: JSON] = ["value": .string(value)]
            if PromptKind(rawValue: prompt.kind) == .pluginChoice { body["remember"] = .string(remember) }
            return .object(body)
        default:
            // A value prompt that lists choices (an enum's cases) takes a number too,
            // as on a terminal.
            if !prompt.options.isEmpty, let n = Int(given), n >= 1, n <= prompt.options.count,
               let id = prompt.options[n - 1]["id"] {
                return ["value": id]
            }
            return ["value": Self.typed(given, prompt)]
        }
    }

    private func ask(_ prompt: Prompt) -> JSON? {
        let dialog = prompt.dialog.isEmpty ? defaultDialog(prompt) : prompt.dialog
        let words = ChooserText.forLanguage(prompt.raw["language"]?.stringValue)
        // The intent's parameter summary with what is known so far, as context for the question.
        if let summary = prompt.raw["summary"]?.stringValue { print(TerminalText.escaped(summary)) }
        switch PromptKind(rawValue: prompt.kind) {
        case .confirmation?:
            while true {
                guard let line = readLine(prompt: "\(dialog) \(words.yesNo) ") else { return nil }
                if let yes = YesNoWords.answer(line) { return ["value": .bool(yes)] }
                print(words.answerYesNo)
            }
        case .disambiguation?, .pluginChoice?:
            print(dialog)
            for (i, option) in prompt.options.enumerated() {
                let title = option["title"]?.displayText ?? option["name"]?.displayText ?? option["id"]?.displayText ?? "?"
                var extra = option["subtitle"]?.displayText ?? ""
                if PromptKind(rawValue: prompt.kind) == .pluginChoice {
                    extra = "\(option["id"]?.displayText ?? ""), \(option["style"]?.displayText ?? "")"
                }
                print("  \(i + 1)) \(title)\(extra.isEmpty ? "" : "  — \(extra)")")
            }
            var picked: JSON?
            while picked == nil {
                guard let line = readLine(prompt: words.choose(prompt.options.count)) else { return nil }
                if let n = Int(line), n >= 1, n <= prompt.options.count {
                    picked = prompt.options[n - 1]["id"]
                } else {
                    print(words.pickNumber(prompt.options.count))
                }
            }
            guard PromptKind(rawValue: prompt.kind) == .pluginChoice else { return ["value": picked!] }
            while true {
                guard let line = readLine(prompt: "Just once or always? [o/a] ") else { return nil }
                switch line.lowercased() {
                case "o", "once", "just once", "": return ["value": picked!, "remember": "once"]
                case "a", "always": return ["value": picked!, "remember": "always"]
                default: print("Please answer o (just once) or a (always).")
                }
            }
        default:
            // Enum parameters come with their cases: offer them as numbered choices.
            if !prompt.options.isEmpty {
                print(dialog)
                for (i, option) in prompt.options.enumerated() {
                    print("  \(i + 1)) \(option["title"]?.displayText ?? option["id"]?.displayText ?? "?")")
                }
                guard let line = readLine(prompt: words.chooseOrValue(prompt.options.count)) else { return nil }
                if let n = Int(line), n >= 1, n <= prompt.options.count { return ["value": prompt.options[n - 1]["id"] ?? .string(line)] }
                return ["value": .string(line)]
            }
            // An entity can be picked from the plugin's suggestions, or named by text or id.
            // A legacy custom type (`queryable: false`) has no suggestions to ask for.
            if let entity = prompt.raw["entity"]?.stringValue, prompt.raw["queryable"]?.boolValue != false {
                let offered = suggestions(entity)
                guard !offered.isEmpty else {
                    guard let line = readLine(prompt: "\(dialog) \(words.nameOrId) ") else { return nil }
                    return ["value": .string(line)]
                }
                print(dialog)
                for (i, option) in offered.enumerated() {
                    let subtitle = option["subtitle"]?.displayText ?? ""
                    print("  \(i + 1)) \(option["title"]?.displayText ?? option["id"]?.displayText ?? "?")\(subtitle.isEmpty ? "" : "  — \(subtitle)")")
                }
                guard let line = readLine(prompt: words.chooseOrName(offered.count)) else { return nil }
                if let n = Int(line), n >= 1, n <= offered.count, let id = offered[n - 1]["id"] { return ["value": id] }
                return ["value": .string(line)]
            }
            // Plain text needs no hint; other types say what they expect, in the dialog's
            // language (`type_title`), and a list says how to give several.
            var hint = prompt.raw["type"]?.stringValue == "String" ? nil
                : (prompt.raw["type_title"]?.stringValue ?? prompt.raw["type"]?.stringValue)
            if let range = prompt.raw["range"]?.stringValue { hint = [hint, range].compactMap { $0 }.joined(separator: ", ") }
            if prompt.raw["multiple"] == true { hint = [hint, "a JSON list for several"].compactMap { $0 }.joined(separator: "; ") }
            let type = hint.map { " (\($0))" } ?? ""
            guard let line = readLine(prompt: "\(dialog)\(type) ") else { return nil }
            return ["value": Self.typed(line, prompt)]
        }
    }

    /// A typed answer: a JSON list (`["Alex","Sam"]`) for a list parameter, else as `key=value`.
    private static func typed(_ text: String, _ prompt: Prompt) -> JSON {
        if prompt.raw["multiple"] == true, text.hasPrefix("["), let list = try? JSON.parse(Data(text.utf8)), list.arrayValue != nil {
            return list
        }
        return SendCommand.inferred(text)
    }

    private func defaultDialog(_ prompt: Prompt) -> String {
        switch PromptKind(rawValue: prompt.kind) {
        case .pluginChoice?: "Several plugins can do this. Which one?"
        case .disambiguation?: "Which \(prompt.parameter ?? "one")?"
        case .confirmation?: "Are you sure?"
        default: "Value for \(prompt.parameter ?? "the parameter")?"
        }
    }

    private func readLine(prompt: String) -> String? {
        print(prompt, terminator: "")
        fflush(nil)
        let line = TerminalLine.read(ended: requestEnded)?.trimmingCharacters(in: .whitespaces)
        if TerminalLine.endedWhileReading { print("") }  // the prompt's line is left open
        return line
    }
}
