import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

/// `intentbus validate`: runs a plugin in describe mode and checks its new-style
/// metadata the way the host does at HELLO, like a build step (App Intents' metadata
/// extractor).
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", summary: "check a plugin's declarations (describe mode), like a build step",
        synopsis: ["validate [--config FILE] PLUGIN-ID [--json]", "validate --exec PATH [ARG …] [--json]"],
        discussion: """
        Runs the plugin with INTENTBUS_DESCRIBE=1 (the SDK prints its HELLO declarations as
        JSON and exits without connecting) and checks its new-style metadata: titles,
        defaults within their ranges, entity queries, unique identifiers, migrations, and
        the app shortcuts' phrases (docs/shortcuts.md "The rules").
        With PLUGIN-ID the plugin's exec and env come from the manifest, and every intent
        the manifest lists in IntentsSupported must have a handler.
        """,
        positionals: [PositionalSpec("PLUGIN-ID", completion: .dynamic("plugins")),
                      PositionalSpec("ARG", variadic: true)],
        options: [
            .value("exec", "PATH", "run this executable (with the ARGs) instead of a manifest entry",
                   completion: .file),
            CommonOptions.config,
            .flag("json", "print the plugin's declarations as JSON instead of a summary"),
        ],
        footer: "Exit codes: 0 valid, 1 invalid metadata, 2 usage, 6 manifest error.")

    static func run(_ args: Arguments) throws -> Int32 {
        let declarations: PluginDeclarations
        var claimed: [String] = []
        var definitions: [String: IntentDefinition] = [:]
        let label: String
        // For the app-shortcut rules: the plugin's names, and every other plugin's.
        var names: [String] = [], others: [String: [String]] = [:]
        var loaded: Manifest?
        do {
            if let exec = args.value("exec") {
                label = ([exec] + args.positionals).joined(separator: " ")
                declarations = try PluginDeclarations.read(path: exec, arguments: args.positionals,
                                                           environment: ProcessInfo.processInfo.environment, label: exec)
            } else {
                guard let id = args.positionals.first else { throw UsageError("validate needs a PLUGIN-ID or --exec PATH") }
                guard args.positionals.count == 1 else { throw UsageError("ARGs go with --exec PATH") }
                let manifest = try ManifestLoader.load(path: configPath(args), curveAvailable: CurveKeyPair.isAvailable)
                guard let spec = manifest.plugins.first(where: { $0.id == id }) else {
                    throw UsageError("no plugin \"\(id)\" in \(manifest.path)" + Suggestion.hint(for: id, among: manifest.plugins.map(\.id))
                                     + " (plugins: \(manifest.plugins.map(\.id).joined(separator: ", ")))")
                }
                guard spec.isSpawned else {
                    let kind = spec.mdpWorker ? "an mdp_worker entry (Majordomo workers connect by themselves)"
                                              : "a remote plugin (it runs on another machine)"
                    throw UsageError("\(id) is \(kind): the host has no program to run for it; validate the plugin's own program with --exec PATH")
                }
                label = id
                claimed = spec.intentsSupported
                names = [spec.name] + spec.synonyms
                loaded = manifest
                for other in manifest.plugins where other.id != id { others[other.id] = [other.name] + other.synonyms }
                let catalog = try DefinitionLoader.load(manifest: manifest)
                for intent in spec.intentsSupported {
                    if let d = catalog.definition(of: intent, plugin: id) { definitions[intent] = d }
                }
                declarations = try PluginDeclarations.read(spec)
            }
        } catch let failure as PluginDeclarations.Failure {
            printError("error: \(failure)")
            return ExitCode.intentFailed
        }
        let hello = declarations.hello
        // What the host checks at HELLO, and what would fail later, on the first request.
        var problems = NewStyleMetadata.problems(inHello: hello)
        let shortcutLabel = args.value("exec") ?? label
        let shortcuts = ShortcutValidation.check(hello: hello, plugin: shortcutLabel,
                                                 names: names.isEmpty ? [shortcutLabel] : names, others: others)
        problems += shortcuts.errors
        for warning in shortcuts.warnings { printError("warning: \(label): \(warning)") }
        if let loaded, let definitions = try? DefinitionLoader.load(manifest: loaded) {
            for repeated in ShortcutValidation.repeats(hello: hello, plugin: label, manifest: loaded, definitions: definitions) {
                printError("warning: \(repeated)")
            }
        }
        var styles: [String: HandlerStyle] = [:]
        do { styles = try declarations.styles() } catch { problems.append(error.description) }
        for intent in claimed where styles[intent] == nil {
            problems.append("no handler for \(intent), which the manifest lists in IntentsSupported")
        }
        var later: [String] = []
        // A legacy handler needs its intent's definition (resolve, confirm, codes), as the
        // host does when the first request comes: only with the manifest can it be checked.
        if args.value("exec") == nil {
            for (intent, style) in styles.sorted(by: { $0.key < $1.key }) where style == .legacy && definitions[intent] == nil {
                later.append("legacy handler for \(intent) has no intent definition: list its file under definitions: in the manifest (docs/definitions.md)")
            }
            // A response code the handler has and the definition lacks fails the request
            // that answers with it; HELLO lists the handler's codes (docs/protocol.md §5.1).
            for (intent, codes) in HelloIntents.codes(hello["intents"]).sorted(by: { $0.key < $1.key }) {
                guard styles[intent] == .legacy, let definition = definitions[intent] else { continue }
                let declared = Set(definition.codes.map(\.name))
                let extra = codes.filter { !declared.contains($0) }
                guard !extra.isEmpty else { continue }
                later.append("legacy handler for \(intent) has response code\(extra.count == 1 ? "" : "s") \(extra.joined(separator: ", ")) that its definition does not declare (declared: \(definition.codes.map(\.name).joined(separator: ", "))); answering with \(extra.count == 1 ? "it" : "one") would fail the request")
            }
        }
        for problem in problems + later { printError("error: \(label): \(problem)") }
        if !problems.isEmpty {
            printError("\(problems.count) error\(problems.count == 1 ? "" : "s"): the host would reject this plugin's HELLO")
        }
        if !later.isEmpty {
            printError("\(later.count) error\(later.count == 1 ? "" : "s"): requests for these intents would fail")
        }
        if !problems.isEmpty || !later.isEmpty { return ExitCode.intentFailed }
        if args.flag("json") { print(prettyJSON(hello)); return ExitCode.success }
        printSummary(hello, label: label, styles: styles, definitions: definitions)
        return ExitCode.success
    }

    private static func printSummary(_ hello: JSON, label: String, styles: [String: HandlerStyle],
                                     definitions: [String: IntentDefinition]) {
        let section = hello["metadata"]?["new_style"]
        let intents = section?["intents"]?.arrayValue ?? []
        // New-style intents as declared (a migrated legacy name is the same intent), then
        // the other handlers.
        var counts = intents.isEmpty ? [] : ["\(intents.count) new-style intent\(intents.count == 1 ? "" : "s")"]
        for style in [HandlerStyle.legacy, .plain] {
            let n = styles.filter { !$0.key.hasPrefix("ib.") && $0.value == style }.count
            if n > 0 { counts.append("\(n) \(style.rawValue) handler\(n == 1 ? "" : "s")") }
        }
        print("\(label): valid — \(counts.isEmpty ? "no intents" : counts.joined(separator: ", "))")
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
        for (intent, style) in styles.sorted(by: { $0.key < $1.key }) where style == .legacy {
            let d = definitions[intent]
            print("  \(intent)  (legacy)\(d.map { "  \"\($0.title)\", \($0.parameters.count) parameter\($0.parameters.count == 1 ? "" : "s"), \($0.codes.count) response codes" } ?? "")")
        }
        for s in section?["shortcuts"]?.arrayValue ?? [] {
            let phrases = (s["phrases"]?.arrayValue ?? []).map { "“\($0.displayText)”" }.joined(separator: ", ")
            print("  shortcut \(s["intent"]?.displayText ?? "?") \"\(s["short_title"]?.displayText ?? "")\": \(phrases)")
        }
        let plain = styles.filter { $0.value == .plain && !$0.key.hasPrefix("ib.") }.keys.sorted()
        if !plain.isEmpty { print("  plain handlers (any JSON object): \(plain.joined(separator: ", "))") }
    }
}
