import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus choices list|set|reset`: see, switch and forget remembered plugin choices
/// (the host intents `ib.choices.*`).
enum ChoicesCommand {
    static let spec = CommandSpec(
        name: "choices", summary: "list, set or reset remembered plugin choices",
        synopsis: ["choices list [--intent INTENT] [--json]", "choices set INTENT PLUGIN [--client ID]",
                   "choices reset INTENT [--client ID]", "choices reset --all"],
        discussion: """
        The host remembers a plugin per intent when a client answers "always" (or sends
        --plugin ID --remember), for every client or for one client identity (--client).
        list    shows every remembered choice and whether its plugin can still serve it
        set     remembers PLUGIN for INTENT; the plugin must claim the intent
        reset   forgets the choices for INTENT (only that client's with --client), or all
        """,
        subcommands: ["list", "set", "reset"],
        positionals: [PositionalSpec("INTENT", completion: .dynamic("intents")),
                      PositionalSpec("PLUGIN", completion: .dynamic("plugins"))],
        options: [
            .value("intent", "INTENT", "list: only the choices for INTENT", completion: .dynamic("intents")),
            .value("client", "ID", "set, reset: for this client identity only"),
            .flag("all", "reset: forget every remembered choice"),
            CommonOptions.json,
        ] + CommonOptions.host,
        footer: "Exit codes: 0 done, 2 usage, 3 bus error (e.g. unknown_plugin), 5 host unreachable.")

    static func run(_ args: Arguments) throws -> Int32 {
        guard let action = args.positionals.first else { throw UsageError("choices needs list, set or reset") }
        let rest = Array(args.positionals.dropFirst())
        switch action {
        case "list":
            guard rest.isEmpty, args.value("client") == nil, !args.flag("all") else {
                throw UsageError("choices list takes only --intent, --json and the endpoint options")
            }
            var request: [String: JSON] = [:]
            if let intent = args.value("intent") { request["intent"] = .string(intent) }
            // The host answers in pages (at most 1,000 choices each): follow `next`.
            let bus = try client(args)
            var body = try bus.control("ib.choices.list", .object(request))
            var choices = body["choices"]?.arrayValue ?? []
            while let next = body["next"], next.objectValue != nil {
                request["after"] = next
                body = try bus.control("ib.choices.list", .object(request))
                choices += body["choices"]?.arrayValue ?? []
            }
            if var all = body.objectValue {
                all["choices"] = .array(choices)
                all.removeValue(forKey: "next")
                body = .object(all)
            }
            print(args.flag("json") ? prettyJSON(body) : renderList(body), terminator: args.flag("json") ? "\n" : "")
        case "set":
            guard rest.count == 2, !args.flag("all"), args.value("intent") == nil else {
                throw UsageError("choices set needs INTENT PLUGIN")
            }
            var request: [String: JSON] = ["intent": .string(rest[0]), "plugin": .string(rest[1]), "source": "cli"]
            if let c = args.value("client") { request["client"] = .string(c) }
            let body = try client(args).control("ib.choices.set", .object(request))
            if args.flag("json") { print(prettyJSON(body)); break }
            let whose = args.value("client").map { "client \($0)" } ?? "every client"
            var line = "\(rest[0]) → \(rest[1]), for \(whose)"
            if let previous = body["previous"]?["plugin"]?.stringValue { line += " (was \(previous))" }
            print(line)
        case "reset":
            var request: [String: JSON] = [:]
            if args.flag("all") {
                guard rest.isEmpty, args.value("client") == nil else {
                    throw UsageError("choices reset --all takes no INTENT and no --client")
                }
                request["all"] = true
            } else {
                guard rest.count == 1, args.value("intent") == nil else {
                    throw UsageError("choices reset needs INTENT or --all")
                }
                request["intent"] = .string(rest[0])
                if let c = args.value("client") { request["client"] = .string(c) }
            }
            let body = try client(args).control("ib.choices.reset", .object(request))
            if args.flag("json") { print(prettyJSON(body)); break }
            let removed = body["removed"]?.intValue ?? 0
            let scope = args.flag("all") ? "" : " for \(rest[0])\(args.value("client").map { " (client \($0))" } ?? "")"
            print("forgot \(removed) remembered choice\(removed == 1 ? "" : "s")\(scope)")
        default:
            throw UsageError("unknown choices action \"\(action)\" (list, set or reset)")
        }
        return ExitCode.success
    }

    private static func client(_ args: Arguments) throws -> IntentClient {
        try connectedClient(args)
    }

    /// The list as people read it, with a warning for choices whose plugin is gone.
    static func renderList(_ body: JSON) -> String {
        let choices = body["choices"]?.arrayValue ?? []
        var out = ""
        if choices.isEmpty {
            out += "no remembered choices\n"
        } else {
            var rows = [["INTENT", "CLIENT", "PLUGIN", "SOURCE", "SET AT"]]
            for c in choices {
                rows.append([c["intent"]?.displayText ?? "", c["client"]?.stringValue ?? "(everyone)",
                             c["plugin"]?.displayText ?? "", c["source"]?.displayText ?? "", c["set_at"]?.displayText ?? ""])
            }
            out += table(rows)
            for c in choices where c["available"]?.boolValue == false {
                out += "! \(c["intent"]?.displayText ?? ""): \(c["plugin"]?.displayText ?? "") is no longer available (\(c["unavailable"]?.displayText ?? "")); the host will ask again\n"
            }
        }
        let store = body["store"] ?? .object([:])
        if store["persistent"]?.boolValue == true {
            out += "stored in \(store["path"]?.displayText ?? "?")\n"
        } else {
            out += "not stored on disk: \(store["problem"]?.displayText ?? "?"); choices are lost when the host stops\n"
        }
        return out
    }
}
