import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus reload`: the running host re-reads its manifest (the host intent `ib.reload`).
enum ReloadCommand {
    static let spec = CommandSpec(
        name: "reload", summary: "make the running host re-read its manifest and apply what changed",
        synopsis: ["reload [options]"],
        discussion: """
        The host reads its manifest and plugins.d/ again and starts, stops or restarts only
        the plugins whose entries changed; requests to the others go on (docs/lifecycle.md,
        "Hot reload"). A manifest with errors is rejected, and the running configuration
        stays: the errors are printed as file:line:column. Host settings that can't change
        at run time (endpoints, state_dir, …) are listed as needing a restart of the host.
        SIGHUP to the host does the same.
        """,
        options: [CommonOptions.json] + CommonOptions.host,
        footer: "Exit codes: 0 applied, 2 usage, 3 bus error, 5 host unreachable, 6 the new manifest has errors (nothing changed).")

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positionals.isEmpty else { throw UsageError("reload takes no arguments") }
        let result = try connectedClient(args).control("ib.reload", wait: .seconds(30))
        let applied = result["applied"]?.boolValue == true
        if args.flag("json") {
            print(prettyJSON(result))
        } else {
            print(render(result), terminator: "")
        }
        return applied ? ExitCode.success : ExitCode.configError
    }

    /// The report as people read it.
    static func render(_ result: JSON) -> String {
        func items(_ key: String) -> [String] { (result[key]?.arrayValue ?? []).map(\.displayText) }
        guard result["applied"]?.boolValue == true else {
            var out = "the manifest has errors; nothing changed (the running configuration stays):\n"
            for e in items("errors") { out += "  \(e)\n" }
            return out
        }
        var out = ""
        for (key, label) in [("added", "added"), ("removed", "removed"), ("restarted", "restarted"), ("updated", "updated")] {
            let ids = items(key)
            if !ids.isEmpty { out += "\(label): \(ids.joined(separator: ", "))\n" }
        }
        if out.isEmpty { out = "nothing changed\n" }
        let unchanged = items("unchanged")
        out += "unchanged: \(unchanged.isEmpty ? "none" : unchanged.joined(separator: ", "))\n"
        for key in items("needs_restart") { out += "needs a host restart: \(key)\n" }
        for w in items("warnings") { out += "\(w)\n" }
        return out
    }
}
