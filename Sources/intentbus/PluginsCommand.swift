import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus plugins`: every plugin the running host knows (the host intent `ib.plugins`).
enum PluginsCommand {
    static let spec = CommandSpec(
        name: "plugins", summary: "list every plugin, its state, pid and intents",
        discussion: """
        Lists every plugin the running host knows: state, pid, intents, restarts, and the
        intents that more than one plugin claims.
        """,
        options: [CommonOptions.json] + CommonOptions.host,
        footer: "Exit codes: 0 listed, 3 bus error, 5 host unreachable.")

    static func run(_ args: Arguments) throws -> Int32 {
        let client = try connectedClient(args)
        let body = try client.control("ib.plugins")
        if args.flag("json") { print(prettyJSON(body)); return ExitCode.success }
        print(render(body), terminator: "")
        return ExitCode.success
    }

    /// The list as people read it.
    static func render(_ body: JSON) -> String {
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
