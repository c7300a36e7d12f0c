import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus logs PLUGIN`: the recent output lines the host kept for a plugin (host
/// intent `ib.logs`), so a plugin that fails says why without the host's log at hand.
enum LogsCommand {
    static let spec = CommandSpec(
        name: "logs", summary: "the recent output lines the host kept for a plugin",
        discussion: """
        Shows what PLUGIN wrote to stdout and stderr lately, as the host kept it (the newest
        200 lines per plugin, across restarts), with the time and the process id of each
        line. A plugin that fails at start shows its reason here.
        """,
        positionals: [PositionalSpec("PLUGIN", completion: .dynamic("plugins"))],
        options: [
            .value("lines", "N", "how many of the newest lines (default 50, at most 1000)", check: { text in
                guard let n = Int(text), n >= 1, n <= 1_000 else { return "takes a whole number within 1…1000, got \(text)" }
                return nil
            }),
            .flag("json", "print the lines as JSON"),
        ] + CommonOptions.host,
        footer: "Exit codes: 0 shown, 2 usage, 3 bus error (unknown_plugin), 5 host unreachable.")

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positionals.count == 1, let plugin = args.positionals.first else {
            throw UsageError("logs needs exactly one PLUGIN")
        }
        var request: [String: JSON] = ["plugin": .string(plugin)]
        if let n = args.value("lines").flatMap({ Int64($0) }) { request["lines"] = .int(n) }
        let body = try connectedClient(args).control("ib.logs", .object(request))
        if args.flag("json") {
            print(prettyJSON(body))
            return ExitCode.success
        }
        let lines = body["lines"]?.arrayValue ?? []
        if let earlier = body["earlier"]?.intValue, earlier > 0 {
            print("(\(earlier) earlier line\(earlier == 1 ? "" : "s") not shown)")
        }
        if lines.isEmpty { print("\(plugin) has written nothing to stdout or stderr") }
        for line in lines { print(render(line)) }
        return ExitCode.success
    }

    /// `12:17:06 [pid 42] text`.
    static func render(_ line: JSON) -> String {
        let time = line["time"]?.stringValue ?? ""
        let clock = time.split(separator: "T").last.map { String($0.prefix(8)) } ?? time
        // A plugin's output may hold escape sequences or carriage returns: shown, not obeyed.
        return TerminalText.escaped("\(clock) [pid \(line["pid"]?.displayText ?? "?")] \(line["text"]?.displayText ?? "")")
    }

    /// The last `count` lines of `plugin`, or none when the host can't say.
    static func tail(_ client: IntentClient, plugin: String, count: Int) -> [JSON] {
        let body = try? client.control("ib.logs", ["plugin": .string(plugin), "lines": .int(Int64(count))])
        return body?["lines"]?.arrayValue ?? []
    }
}
