import Foundation
import IntentBus
import PluginHost

/// `intentbus validate`: runs a plugin in describe mode and checks its new-style
/// metadata the way the host does at HELLO, like a build step (App Intents' metadata
/// extractor).
enum ValidateCommand {
    static let usage = """
    usage: intentbus validate [--config FILE] PLUGIN-ID [--json]
           intentbus validate --exec PATH [ARG …] [--json]

    Runs the plugin with INTENTBUS_DESCRIBE=1 (the SDK prints its HELLO declarations as
    JSON and exits without connecting) and checks its new-style metadata: titles,
    defaults within their ranges, entity queries, unique identifiers, migrations, and
    the app shortcuts' phrases (docs/shortcuts.md "The rules").
    With PLUGIN-ID the plugin's exec and env come from the manifest, and every intent
    the manifest lists in IntentsSupported must have a handler.
      --json   print the plugin's declarations as JSON instead of a summary
    Exit codes: 0 valid, 1 invalid metadata, 2 usage, 6 manifest error.
    """

    static func run(_ argv: [String]) throws -> Int32 {
        let args = try Arguments(argv, valued: ["config", "exec"], booleans: ["json", "help"])
        if args.flag("help") { print(usage); return ExitCode.success }
        var path: String, arguments: [String], environment = ProcessInfo.processInfo.environment
        var claimed: [String] = []
        var label: String
        // For the app-shortcut rules: the plugin's names, and every other plugin's.
        var names: [String] = [], others: [String: [String]] = [:]
        var loaded: Manifest?
        if let exec = args.value("exec") {
            path = exec
            arguments = args.positionals
            label = exec
        } else {
            guard let id = args.positionals.first else { throw UsageError("validate needs a PLUGIN-ID or --exec PATH") }
            let manifest = try ManifestLoader.load(path: configPath(args))
            guard let spec = manifest.plugins.first(where: { $0.id == id }) else {
                throw UsageError("no plugin \"\(id)\" in \(manifest.path) (plugins: \(manifest.plugins.map(\.id).joined(separator: ", ")))")
            }
            path = spec.exec.path
            arguments = spec.exec.arguments
            for (k, v) in spec.environment { environment[k] = v }
            environment["INTENTBUS_PLUGIN_ID"] = id
            claimed = spec.intentsSupported
            label = id
            names = [spec.name] + spec.synonyms
            loaded = manifest
            for other in manifest.plugins where other.id != id { others[other.id] = [other.name] + other.synonyms }
        }
        environment["INTENTBUS_DESCRIBE"] = "1"
        environment.removeValue(forKey: "INTENTBUS_BACKEND")
        environment.removeValue(forKey: "INTENTBUS_TOKEN")

        let (status, output, errors) = try describe(path: path, arguments: arguments, environment: environment)
        guard status == 0 else {
            printError("error: \(label): describe mode exited with status \(status)\(errors.isEmpty ? "" : ":\n\(errors)")")
            return ExitCode.intentFailed
        }
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let hello = try? JSON.parse(String(line)), hello.objectValue != nil else {
            printError("error: \(label) did not print its declarations as JSON; is it built with the IntentBus SDK (IntentPlugin.run())?")
            return ExitCode.intentFailed
        }
        var problems = NewStyleMetadata.problems(inHello: hello)
        let shortcuts = ShortcutValidation.check(hello: hello, plugin: label, names: names.isEmpty ? [label] : names, others: others)
        problems += shortcuts.errors
        for warning in shortcuts.warnings { printError("warning: \(label): \(warning)") }
        if let loaded, let definitions = try? DefinitionLoader.load(manifest: loaded) {
            for repeated in ShortcutValidation.repeats(hello: hello, plugin: label, manifest: loaded, definitions: definitions) {
                printError("warning: \(repeated)")
            }
        }
        let handled = Set((hello["intents"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        for intent in claimed where !handled.contains(intent) {
            problems.append("no handler for \(intent), which the manifest lists in IntentsSupported")
        }
        if !problems.isEmpty {
            for problem in problems { printError("error: \(label): \(problem)") }
            printError("\(problems.count) error\(problems.count == 1 ? "" : "s"): the host would reject this plugin's HELLO")
            return ExitCode.intentFailed
        }
        if args.flag("json") { print(prettyJSON(hello)); return ExitCode.success }
        printSummary(hello, label: label)
        return ExitCode.success
    }

    /// Runs the plugin and collects its output; kills it if it hangs (it should exit).
    private static func describe(path: String, arguments: [String], environment: [String: String]) throws -> (Int32, String, String) {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw UsageError("\(path) is not an executable file (build it first: swift build)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: killer)
        let errors = ErrorCollector(err.fileHandleForReading)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), errors.text)
    }

    private static func printSummary(_ hello: JSON, label: String) {
        let section = hello["metadata"]?["new_style"]
        let intents = section?["intents"]?.arrayValue ?? []
        print("\(label): valid — \(intents.count) new-style intent\(intents.count == 1 ? "" : "s")")
        for intent in intents {
            var line = "  \(intent["identifier"]?.displayText ?? "?")  \"\(intent["title"]?.displayText ?? "")\""
            if let m = intent["migrated_from"]?.stringValue { line += "  (migrates \(m))" }
            if intent["authentication"]?.stringValue == "requires_authentication" { line += "  [requires authentication]" }
            print(line)
            for p in intent["parameters"]?.arrayValue ?? [] {
                var type = p["type"]?.displayText ?? "?"
                if let e = p["entity"]?.stringValue ?? p["enum"]?.stringValue { type += " \(e)" }
                var extra: [String] = []
                if p["optional"]?.boolValue == true { extra.append("optional") }
                if let d = p["default"] { extra.append("default \(d.displayText)") }
                if p["min"] != nil || p["max"] != nil { extra.append("range \(p["min"]?.displayText ?? "")…\(p["max"]?.displayText ?? "")") }
                print("    \(p["name"]?.displayText ?? "?"): \(type)\(extra.isEmpty ? "" : " (\(extra.joined(separator: ", ")))")")
            }
        }
        for e in section?["entities"]?.arrayValue ?? [] {
            let q = e["query"]
            let caps = ["ids", "suggested", "matching", "all"].filter { q?[$0]?.boolValue == true }
            print("  entity \(e["name"]?.displayText ?? "?") \"\(e["type_display_name"]?.displayText ?? "")\": \(caps.joined(separator: ", "))")
        }
        for e in section?["enums"]?.arrayValue ?? [] {
            let cases = (e["cases"]?.arrayValue ?? []).map { $0["value"]?.displayText ?? "?" }
            print("  enum \(e["name"]?.displayText ?? "?"): \(cases.joined(separator: ", "))")
        }
        for s in section?["shortcuts"]?.arrayValue ?? [] {
            let phrases = (s["phrases"]?.arrayValue ?? []).map { "“\($0.displayText)”" }.joined(separator: ", ")
            print("  shortcut \(s["intent"]?.displayText ?? "?") \"\(s["short_title"]?.displayText ?? "")\": \(phrases)")
        }
        let others = (hello["intents"]?.arrayValue ?? []).filter { $0["style"]?.stringValue != "new" && $0["name"]?.stringValue?.hasPrefix("ib.") == false }
        if !others.isEmpty {
            print("  other handlers: " + others.map { "\($0["name"]?.displayText ?? "?") (\($0["style"]?.displayText ?? "plain"))" }.joined(separator: ", "))
        }
    }
}

/// Reads a pipe on another thread, so that a chatty stderr can't block the plugin.
private final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`; `done` orders the final read.
    private let lock = Lock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let d = handle.readDataToEndOfFile()
            lock.withLock { data = d }
            done.signal()
        }
    }

    var text: String {
        done.wait()
        return lock.withLock { String(decoding: data, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
