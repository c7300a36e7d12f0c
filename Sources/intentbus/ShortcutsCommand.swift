import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus shortcuts add|list|edit|delete`: phrases people record for an intent with
/// fixed parameters ("Add to Siri"), through the host intents `ib.shortcuts.*`.
enum ShortcutsCommand {
    static let spec = CommandSpec(
        name: "shortcuts", summary: "add, list, edit or delete your own phrases (\"Add to Siri\")",
        synopsis: ["shortcuts add PHRASE INTENT [key=value | key:=JSON …] [--plugin ID]",
                   "shortcuts add --donation IDENTIFIER [PHRASE]",
                   "shortcuts list [--all] [--json]",
                   "shortcuts edit PHRASE [--phrase NEW] [--intent INTENT] [--plugin ID] [key=value …]",
                   "shortcuts delete PHRASE"],
        discussion: """
        add      records PHRASE for INTENT with these parameters; `intentbus say PHRASE` then
                 runs it. A phrase already taken (by you, or by a plugin's phrase for another
                 intent) is refused, naming who has it. --donation takes the intent, the
                 parameters and the suggested phrase of a donation.
        list     your phrases; --all adds every plugin's app and legacy phrases
        edit     changes a phrase, its intent, plugin or parameters (given ones replace all)
        delete   forgets a phrase
        """,
        positionals: [PositionalSpec("ACTION", completion: .words(["add", "list", "edit", "delete"])),
                      PositionalSpec("ARGS", variadic: true)],
        options: [
            .value("plugin", "ID", "the plugin that runs it", completion: .dynamic("plugins")),
            .value("donation", "IDENTIFIER", "add: take intent, parameters and phrase from this donation"),
            .value("phrase", "NEW", "edit: the new phrase"),
            .value("intent", "INTENT", "edit: the new intent", completion: .dynamic("intents")),
            .flag("all", "list: every plugin's app and legacy phrases too"),
            .value("client", "ID", "whose phrases (default: this client's identity)"),
            .flag("json", "print the answer as JSON"),
        ] + CommonOptions.host,
        footer: "Exit codes: 0 done, 2 usage, 3 bus error (e.g. phrase taken), 5 host unreachable.")

    static func run(_ args: Arguments) throws -> Int32 {
        guard let action = args.positionals.first else { throw UsageError("shortcuts needs add, list, edit or delete") }
        let rest = Array(args.positionals.dropFirst())
        var request: [String: JSON] = [:]
        if let c = args.value("client") { request["client"] = .string(c) }
        let intentName: String
        switch action {
        case "add":
            if let donation = args.value("donation") {
                guard rest.count <= 1 else { throw UsageError("shortcuts add --donation ID takes at most a PHRASE") }
                request["donation"] = .string(donation)
                if let p = rest.first { request["phrase"] = .string(p) }
            } else {
                guard rest.count >= 2 else { throw UsageError("shortcuts add needs PHRASE and INTENT") }
                request["phrase"] = .string(rest[0])
                request["intent"] = .string(rest[1])
                request["parameters"] = .object(try SendCommand.parseParameters(Array(rest.dropFirst(2)), json: nil))
            }
            if let p = args.value("plugin") { request["plugin"] = .string(p) }
            intentName = "ib.shortcuts.add"
        case "list":
            guard rest.isEmpty else { throw UsageError("shortcuts list takes no arguments") }
            if args.flag("all") { request["all"] = true }
            intentName = "ib.shortcuts.list"
        case "edit":
            guard let phrase = rest.first else { throw UsageError("shortcuts edit needs PHRASE") }
            request["phrase"] = .string(phrase)
            if let n = args.value("phrase") { request["new_phrase"] = .string(n) }
            if let i = args.value("intent") { request["intent"] = .string(i) }
            if let p = args.value("plugin") { request["plugin"] = .string(p) }
            if rest.count > 1 { request["parameters"] = .object(try SendCommand.parseParameters(Array(rest.dropFirst()), json: nil)) }
            intentName = "ib.shortcuts.edit"
        case "delete":
            guard rest.count == 1 else { throw UsageError("shortcuts delete needs PHRASE") }
            request["phrase"] = .string(rest[0])
            intentName = "ib.shortcuts.delete"
        default:
            throw UsageError("unknown shortcuts action \"\(action)\" (add, list, edit or delete)")
        }
        let (answer, failed) = try SayCommand.ask(intentName, request, args)
        guard let body = answer else { return failed }
        if args.flag("json") { print(prettyJSON(body)); return ExitCode.success }
        switch action {
        case "list": print(renderList(body), terminator: "")
        case "delete": print("deleted “\(rest[0])”")
        default:
            let s = body["shortcut"] ?? .null
            print("“\(s["phrase"]?.displayText ?? "")” → \(describe(s))")
        }
        return ExitCode.success
    }

    static func describe(_ s: JSON) -> String {
        let params = (s["parameters"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.displayText)" }.joined(separator: " ")
        return (s["intent"]?.displayText ?? "?") + (params.isEmpty ? "" : " \(params)")
            + (s["plugin"]?.stringValue.map { " (plugin \($0))" } ?? "")
    }

    static func renderList(_ body: JSON) -> String {
        var out = ""
        let user = body["user"]?.arrayValue ?? []
        if user.isEmpty { out += "no phrases recorded\n" }
        // Phrases are text clients stored: one line each, whatever control characters they hold.
        for s in user { out += TerminalText.escaped("“\(s["phrase"]?.displayText ?? "")” → \(describe(s))") + "\n" }
        if let app = body["app"]?.arrayValue {
            out += "\nplugins' phrases:\n"
            for p in app {
                let off = p["available"]?.boolValue == false ? "  (not available)" : ""
                out += TerminalText.escaped("  “\(p["phrase"]?.displayText ?? "")” → \(p["intent"]?.displayText ?? "") [\(p["plugin"]?.displayText ?? ""), \(p["source"]?.displayText ?? "")]\(off)") + "\n"
            }
            for c in body["conflicts"]?.arrayValue ?? [] { out += "! \(c.displayText)\n" }
        }
        if body["store"]?["persistent"]?.boolValue == false {
            out += "not stored: \(body["store"]?["problem"]?.displayText ?? "?")\n"
        }
        return out
    }
}
