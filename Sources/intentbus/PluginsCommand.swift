import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus plugins`: every plugin the running host knows (the host intent `ib.plugins`).
enum PluginsCommand {
    static let spec = CommandSpec(
        name: "plugins", summary: "list every plugin, its state, pid and intents; restart, enable or disable one",
        synopsis: ["plugins [options]", "plugins restart|enable|disable PLUGIN [options]"],
        discussion: """
        Lists every plugin the running host knows: state, pid, intents, restarts, and the
        intents that more than one plugin claims. With an action, acts on one plugin at run
        time (docs/lifecycle.md): restart stops it and starts it again (and resets its
        breaker), disable stops it and routes nothing to it, enable undoes that.
        """,
        positionals: [PositionalSpec("ACTION PLUGIN", "restart, enable or disable, and the plugin's id", variadic: true)],
        options: [CommonOptions.json] + CommonOptions.host,
        footer: "Exit codes: 0 listed or done, 2 usage, 3 bus error (unknown_plugin, …), 5 host unreachable.")

    static let actions = ["restart", "enable", "disable"]

    static func run(_ args: Arguments) throws -> Int32 {
        if !args.positionals.isEmpty {
            guard args.positionals.count == 2, actions.contains(args.positionals[0]) else {
                throw UsageError("plugins takes no arguments, or an action and a plugin: restart|enable|disable PLUGIN")
            }
            let result = try connectedClient(args).control("ib.plugins.\(args.positionals[0])",
                                                           ["plugin": .string(args.positionals[1])])
            if args.flag("json") { print(prettyJSON(result)) } else {
                print("\(args.positionals[1]): \(result["done"]?.displayText ?? "done") (now \(result["state"]?.displayText ?? "?"))")
            }
            return ExitCode.success
        }
        let client = try connectedClient(args)
        var body = try client.control("ib.plugins")
        // A plugin that failed or keeps restarting: its last output lines say why.
        var tails: [String: [JSON]] = [:]
        for p in body["plugins"]?.arrayValue ?? [] where ["failed", "restarting"].contains(p["state"]?.stringValue ?? "") {
            guard let id = p["id"]?.stringValue else { continue }
            let lines = LogsCommand.tail(client, plugin: id, count: tailLength)
            if !lines.isEmpty { tails[id] = lines }
        }
        if args.flag("json") {
            if !tails.isEmpty, var plugins = body["plugins"]?.arrayValue {
                for i in plugins.indices {
                    if let id = plugins[i]["id"]?.stringValue, let lines = tails[id] {
                        var fields = plugins[i].objectValue ?? [:]
                        fields["recent_output"] = .array(lines)
                        plugins[i] = .object(fields)
                    }
                }
                var fields = body.objectValue ?? [:]
                fields["plugins"] = .array(plugins)
                body = .object(fields)
            }
            print(prettyJSON(body))
            return ExitCode.success
        }
        print(render(body, tails: tails), terminator: "")
        return ExitCode.success
    }

    /// How many output lines of a failed plugin `plugins` shows.
    static let tailLength = 5

    /// The list as people read it.
    static func render(_ body: JSON, tails: [String: [JSON]] = [:]) -> String {
        let plugins = body["plugins"]?.arrayValue ?? []
        var rows = [["PLUGIN", "STATE", "PID", "RESTARTS", "INTENTS"]]
        for p in plugins {
            let intents = (p["intents"]?.arrayValue ?? []).map { i -> String in
                let name = i.displayText
                let style = p["styles"]?[name]?.stringValue
                return style.map { "\(name) (\($0))" } ?? name
            }
            rows.append([p["id"]?.displayText ?? "", p["state"]?.displayText ?? "", p["pid"]?.displayText ?? "-",
                         p["restarts"]?.displayText ?? "0", intents.joined(separator: ", ")])
        }
        var out = table(rows)
        for p in plugins {
            let id = p["id"]?.displayText ?? ""
            if let reason = p["reason"]?.stringValue {
                out += "! \(id): \(reason)\n"
            } else if let e = p["last_error"]?.stringValue {
                out += "  \(id): last error: \(e)\n"
            }
            if let lines = tails[id] {
                out += "    its last output (intentbus logs \(id)):\n"
                for line in lines { out += "    | \(line["text"]?.displayText ?? "")\n" }
            }
        }
        if let conflicts = body["conflicts"]?.objectValue, !conflicts.isEmpty {
            out += "\n"
            for (intent, ids) in conflicts.sorted(by: { $0.key < $1.key }) {
                out += "conflict: \(intent) is claimed by \((ids.arrayValue ?? []).map(\.displayText).joined(separator: ", "))\n"
            }
        }
        return out
    }
}
