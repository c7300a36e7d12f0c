import Foundation
import IntentBus

/// `intentbus suggestions` and `intentbus donations`: what the host learned from
/// donations (`ib.suggestions`, `ib.donate`, `ib.donations.*`).
enum SuggestionsCommand {
    static let usage = """
    usage: intentbus suggestions [--limit N] [--now ISO-TIME] [--json]
           intentbus donations list [--plugin ID] [--json]
           intentbus donations add INTENT [key=value …] [--identifier ID] [--group G]
                                   [--title T] [--phrase P] [--plugin ID]
           intentbus donations delete (--identifier ID … | --group G | --plugin ID | --all)
      common options: --client ID, --config FILE | --endpoint EP

    suggestions  what you are likely to want now, ranked by how often, how recently and
                 at what time of day you did it, each with a phrase to say
    donations    the interactions the host remembers (it donates each legacy or
                 new-style request that succeeds; plugins and clients donate too),
                 and deleting them
    """

    static func run(_ argv: [String], command: String) throws -> Int32 {
        let args = try Arguments(argv, valued: ["limit", "now", "plugin", "identifier", "group", "title", "phrase",
                                                "client", "config", "endpoint"],
                                 booleans: ["all", "json", "help"])
        if args.flag("help") { print(usage); return ExitCode.success }
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
        let client = try IntentClient(endpoint: try resolveEndpoint(args), curve: try curveKeys(args))
        let body: JSON
        do {
            body = try client.control(intentName, .object(request))
        } catch {
            return SayCommand.report(error, json: args.flag("json"))
        }
        if args.flag("json") { print(prettyJSON(body)); return ExitCode.success }
        switch intentName {
        case "ib.suggestions":
            let list = body["suggestions"]?.arrayValue ?? []
            if list.isEmpty { print("no suggestions yet: nothing has been donated") }
            for (i, s) in list.enumerated() {
                let say = s["phrase"]?.stringValue.map { "say “\($0)”" } ?? "no phrase: intentbus send \(s["intent"]?.displayText ?? "")"
                print("\(i + 1). \(s["title"]?.stringValue ?? ShortcutsCommand.describe(s))  — \(say)  (\(s["count"]?.displayText ?? "0")×, score \(s["score"]?.displayText ?? ""))")
            }
        case "ib.donations.list":
            for d in body["donations"]?.arrayValue ?? [] {
                print("\(d["at"]?.displayText ?? "")  \(ShortcutsCommand.describe(d))  [\(d["source"]?.displayText ?? "")\(d["identifier"]?.stringValue.map { ", id \($0)" } ?? "")\(d["group"]?.stringValue.map { ", group \($0)" } ?? "")]")
            }
        case "ib.donate":
            print("donated \(ShortcutsCommand.describe(body["donation"] ?? .null))")
        default:
            print("deleted \(body["removed"]?.displayText ?? "0") donation(s)")
        }
        return ExitCode.success
    }
}
