import Foundation
import IntentBus
import PluginHost

let topUsage = """
usage: intentbus COMMAND [options]

IntentBus routes Siri-style intent requests over ZeroMQ to plugin processes.

commands:
  host       run the host on a manifest (default ./plugins.yaml)
  send       send an intent request and print the answer
  plugins    list every plugin, its state, pid and intents
  explain    who would handle an intent, and why
  choices    list, set or reset remembered plugin choices
  validate   check a plugin's new-style metadata (describe mode), like a build step
  say        run the intent a phrase names ("Öffne Website in FocusFlow")
  shortcuts  add, list, edit or delete your own phrases ("Add to Siri")
  suggestions  what you are likely to want now, from donations
  donations  list, add or delete donations

Run `intentbus COMMAND --help` for a command's options.
"""

let hostUsage = """
usage: intentbus host [--config FILE] [--log-level debug|info|warning|error]

Reads the manifest, starts every plugin as its own process and routes requests until
SIGINT or SIGTERM. Manifest errors are printed as file:line:column and exit 6.
"""

let pluginsUsage = """
usage: intentbus plugins [--json] [--config FILE | --endpoint EP]

Lists every plugin the running host knows: state, pid, intents, restarts, and the
intents that more than one plugin claims.
"""

func runHost(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(argv, valued: ["config", "log-level"], booleans: ["help"])
    if args.flag("help") { print(hostUsage); return ExitCode.success }
    var level = Logger.levelFromEnvironment
    if let l = args.value("log-level") {
        guard let parsed = Logger.Level.allCases.first(where: { "\($0)" == l }) else {
            throw UsageError("--log-level is debug, info, warning or error")
        }
        level = parsed
    }
    let logger = Logger(label: "host", minimumLevel: level)
    let manifest = try ManifestLoader.load(path: configPath(args))
    try IntentHost(manifest: manifest, logger: logger).run()
    return ExitCode.success
}

func runPlugins(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(argv, valued: ["config", "endpoint"], booleans: ["json", "help"])
    if args.flag("help") { print(pluginsUsage); return ExitCode.success }
    let client = try IntentClient(endpoint: try resolveEndpoint(args))
    let body = try client.control("ib.plugins")
    if args.flag("json") { print(prettyJSON(body)); return ExitCode.success }
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
    let widths = (0..<4).map { col in rows.map { $0[col].count }.max() ?? 0 }
    for row in rows {
        print((0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
              + "  " + row[4])
    }
    for p in plugins {
        if let reason = p["reason"]?.stringValue { print("! \(p["id"]?.displayText ?? ""): \(reason)") }
        else if let e = p["last_error"]?.stringValue { print("  \(p["id"]?.displayText ?? ""): last error: \(e)") }
    }
    if let conflicts = body["conflicts"]?.objectValue, !conflicts.isEmpty {
        print("")
        for (intent, ids) in conflicts.sorted(by: { $0.key < $1.key }) {
            print("conflict: \(intent) is claimed by \((ids.arrayValue ?? []).map(\.displayText).joined(separator: ", "))")
        }
    }
    return ExitCode.success
}

func main() -> Int32 {
    var argv = Array(CommandLine.arguments.dropFirst())
    guard let command = argv.first else { print(topUsage); return ExitCode.usage }
    argv.removeFirst()
    do {
        switch command {
        case "host": return try runHost(argv)
        case "send": return try SendCommand.run(argv)
        case "plugins": return try runPlugins(argv)
        case "explain": return try ExplainCommand.run(argv)
        case "choices": return try ChoicesCommand.run(argv)
        case "validate": return try ValidateCommand.run(argv)
        case "say": return try SayCommand.run(argv)
        case "shortcuts": return try ShortcutsCommand.run(argv)
        case "suggestions", "donations": return try SuggestionsCommand.run(argv, command: command)
        case "--help", "-h", "help": print(topUsage); return ExitCode.success
        default: throw UsageError("unknown command \"\(command)\"")
        }
    } catch let error as UsageError {
        printError("intentbus: \(error)")
        printError("Run `intentbus \(command == "--help" ? "" : command + " ")--help` for usage.")
        return ExitCode.usage
    } catch let error as ConfigError {
        printError(error.description)
        return ExitCode.configError
    } catch let error as HostStartError {
        printError("intentbus host: \(error)")
        return ExitCode.configError
    } catch let error as ClientError {
        printError("intentbus: \(error)")
        if case .noAnswer = error { return ExitCode.hostUnreachable }
        return ExitCode.busError
    } catch {
        printError("intentbus: \(error)")
        return ExitCode.busError
    }
}

exit(main())
