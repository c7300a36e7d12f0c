import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus suggestions` and `intentbus donations`: what the host learned from
/// donations (`ib.suggestions`, `ib.donate`, `ib.donations.*`).
enum SuggestionsCommand {
    static let suggestionsSpec = CommandSpec(
        name: "suggestions", summary: "what you are likely to want now, from donations",
        synopsis: ["suggestions [--limit N] [--now ISO-TIME] [--json]"],
        discussion: """
        What you are likely to want now, ranked by how often, how recently and at what time
        of day you did it, each with a phrase to say.
        """,
        options: [
            .value("limit", "N", "at most N suggestions, 1…50"),
            .value("now", "ISO-TIME", "rank as if it were this time"),
            .value("client", "ID", "whose donations (default: this client's identity)"),
            .flag("json", "print the answer as JSON"),
        ] + CommonOptions.host,
        footer: "Exit codes: 0 done, 2 usage, 3 bus error, 5 host unreachable.")

    static let donationsSpec = CommandSpec(
        name: "donations", summary: "list, add or delete donations",
        synopsis: ["donations list [--plugin ID] [--json]",
                   "donations add INTENT [key=value …] [--identifier ID] [--group G] [--title T] [--phrase P] [--plugin ID]",
                   "donations delete (--identifier ID … | --group G | --plugin ID | --all)"],
        discussion: """
        The interactions the host remembers (it donates each legacy or new-style request
        that succeeds; plugins and clients donate too), and deleting them.
        """,
        positionals: [PositionalSpec("ACTION", completion: .words(["list", "add", "delete"])),
                      PositionalSpec("ARGS", variadic: true)],
        options: [
            .value("plugin", "ID", "the plugin donated for (list, add, delete)", completion: .dynamic("plugins")),
            .repeated("identifier", "ID", "add: the donation's identifier; delete: one to delete (repeatable)"),
            .value("group", "G", "add: its group; delete: every donation in it"),
            .value("title", "T", "add: its title"),
            .value("phrase", "P", "add: its suggested phrase"),
            .flag("all", "delete: every donation"),
            .value("client", "ID", "whose donations (default: this client's identity)"),
            .flag("json", "print the answer as JSON"),
        ] + CommonOptions.host,
        footer: "Exit codes: 0 done, 2 usage, 3 bus error, 5 host unreachable.")

    static func runSuggestions(_ args: Arguments) throws -> Int32 { try run(args, command: "suggestions") }
    static func runDonations(_ args: Arguments) throws -> Int32 { try run(args, command: "donations") }

    private static func run(_ args: Arguments, command: String) throws -> Int32 {
        var request: [String: JSON] = [:]
        if let c = args.value("client") { request["client"] = .string(c) }
        let intentName: String
        if command == "suggestions" {
            guard args.positionals.isEmpty else { throw UsageError("suggestions takes no arguments") }
            if let l = args.value("limit") {
                guard let n = Int64(l), (1...50).contains(n) else { throw UsageError("--limit is 1…50, got \(l)") }
                request["limit"] = .int(n)
            }
            if let now = args.value("now") { request["now"] = .string(now) }
            intentName = "ib.suggestions"
        } else {
            let action = args.positionals.first ?? ""
            let rest = Array(args.positionals.dropFirst())
            switch action {
            case "list":
                if let p = args.value("plugin") { request["plugin"] = .string(p) }
                intentName = "ib.donations.list"
            case "add":
                guard let intent = rest.first else { throw UsageError("donations add needs INTENT") }
                request["intent"] = .string(intent)
                request["parameters"] = .object(try SendCommand.parseParameters(Array(rest.dropFirst()), json: nil))
                for (option, key) in [("identifier", "identifier"), ("group", "group"), ("title", "title"),
                                      ("phrase", "suggested_phrase"), ("plugin", "plugin")] {
                    if let v = args.value(option) { request[key] = .string(v) }
                }
                intentName = "ib.donate"
            case "delete":
                let ids = args.values("identifier")
                if !ids.isEmpty { request["identifiers"] = .array(ids.map { .string($0) }) }
                if let g = args.value("group") { request["group"] = .string(g) }
                if let p = args.value("plugin") { request["plugin"] = .string(p) }
                if args.flag("all") { request["all"] = true }
                intentName = "ib.donations.delete"
            default:
                throw UsageError("donations needs list, add or delete")
            }
        }
        let (answer, failed) = try SayCommand.ask(intentName, request, args)
        guard let body = answer else { return failed }
        if args.flag("json") { print(prettyJSON(body)); return ExitCode.success }
        switch intentName {
        case "ib.suggestions":
            let list = body["suggestions"]?.arrayValue ?? []
            if list.isEmpty { print("no suggestions yet: nothing has been donated") }
            for (i, s) in list.enumerated() {
                let say = s["phrase"]?.stringValue.map { "say “\($0)”" } ?? addToSiri(s)
                print("\(i + 1). \(s["title"]?.stringValue ?? ShortcutsCommand.describe(s))  — \(say)  (\(s["count"]?.displayText ?? "0")×, score \(s["score"]?.displayText ?? ""))")
            }
        case "ib.donations.list":
            for d in body["donations"]?.arrayValue ?? [] {
                // A row of the host's coalesced donations: how many, the last at `at`.
                let times = d["count"]?.intValue.flatMap { $0 > 1 ? ", ×\($0)" : nil } ?? ""
                print("\(d["at"]?.displayText ?? "")  \(ShortcutsCommand.describe(d))  [\(d["source"]?.displayText ?? "")\(times)\(d["identifier"]?.stringValue.map { ", id \($0)" } ?? "")\(d["group"]?.stringValue.map { ", group \($0)" } ?? "")]")
            }
        case "ib.donate":
            print("donated \(ShortcutsCommand.describe(body["donation"] ?? .null))")
        default:
            print("deleted \(body["removed"]?.displayText ?? "0") donation(s)")
        }
        return ExitCode.success
    }

    /// A suggestion no phrase runs yet: the command that records one ("Add to Siri").
    static func addToSiri(_ s: JSON) -> String {
        let offer = s["add_to_siri"]
        if let id = offer?["donation"]?.stringValue {
            return "Add to Siri: intentbus shortcuts add --donation \(ShellWords.quoted(id))"
        }
        let phrase = offer?["suggested_phrase"]?.stringValue ?? "PHRASE"
        let params = (s["parameters"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map(ShellWords.parameter)
        return (["Add to Siri: intentbus shortcuts add", ShellWords.quoted(phrase), s["intent"]?.displayText ?? ""] + params)
            .joined(separator: " ")
    }
}
