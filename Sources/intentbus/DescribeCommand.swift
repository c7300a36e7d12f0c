import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

/// `intentbus describe INTENT`: the parameters, types, defaults, ranges and phrases of an
/// intent, from each plugin that claims it: a legacy handler's intent definition, a
/// new-style handler's declarations (describe mode), or a plain handler (any JSON object).
/// Works from the manifest; no host is needed.
enum DescribeCommand {
    static let spec = CommandSpec(
        name: "describe", summary: "an intent's parameters, types, defaults, ranges and phrases",
        discussion: """
        Shows INTENT as each plugin in the manifest that claims it handles it: for a legacy
        handler its definition (title, category, example phrases, parameters with types,
        defaults, ranges and prompts, response codes); for a new-style handler its declared
        parameters (run in describe mode, like `validate`); a plain handler takes any JSON
        object. No host needs to run.
        """,
        positionals: [PositionalSpec("INTENT", completion: .dynamic("intents"))],
        options: [CommonOptions.config, .flag("json", "print the description as JSON")],
        footer: "Exit codes: 0 described, 1 no plugin claims INTENT, 2 usage, 6 manifest error.")

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positionals.count == 1, let intent = args.positionals.first else {
            throw UsageError("describe needs exactly one INTENT")
        }
        let manifest = try ManifestLoader.load(path: configPath(args), curveAvailable: CurveKeyPair.isAvailable)
        let claimants = manifest.plugins.filter { $0.intentsSupported.contains(intent) }
        guard !claimants.isEmpty else {
            let known = Array(Set(manifest.plugins.flatMap(\.intentsSupported))).sorted()
            printError("intentbus: no plugin in \(manifest.path) claims \(intent)" + Suggestion.hint(for: intent, among: known))
            return ExitCode.intentFailed
        }
        let catalog = try DefinitionLoader.load(manifest: manifest)
        let handlers = claimants.map { describe(intent, spec: $0, catalog: catalog) }
        let body: JSON = ["intent": .string(intent), "handlers": .array(handlers)]
        if args.flag("json") {
            print(prettyJSON(body))
        } else {
            print(render(body), terminator: "")
        }
        return ExitCode.success
    }

    /// One claimant's view of the intent, as JSON.
    static func describe(_ intent: String, spec: PluginSpec, catalog: DefinitionCatalog) -> JSON {
        var out: [String: JSON] = ["plugin": .string(spec.id), "name": .string(spec.name)]
        if !spec.enabled { out["disabled"] = true }
        let declarations: PluginDeclarations?
        do { declarations = try PluginDeclarations.read(spec) } catch {
            declarations = nil
            out["problem"] = .string("describe mode failed: \(error)")
        }
        let definition = catalog.definition(of: intent, plugin: spec.id)
        let style = (try? declarations?.styles())?[intent] ?? (definition != nil ? .legacy : nil)
        out["style"] = style.map { .string($0.rawValue) } ?? .null
        if style == .new, let declared = declarations?.newStyleIntent(intent) {
            for key in ["title", "description", "category", "authentication", "migrated_from", "schema", "phrases"] {
                if let v = declared[key] { out[key] = v }
            }
            out["parameters"] = declared["parameters"] ?? .array([])
            if let summary = declared["summary"] { out["summary"] = summary }
            if declared["discoverable"]?.boolValue == false { out["discoverable"] = false }
            let shortcuts = declarations?.shortcutPhrases(declared["identifier"]?.stringValue ?? intent) ?? []
            if !shortcuts.isEmpty { out["shortcut_phrases"] = .array(shortcuts) }
        } else if let definition, style == .legacy || style == nil {
            out.merge(legacy(definition), uniquingKeysWith: { $1 })
        } else if style == .plain {
            out["parameters"] = .null
            out["note"] = "a plain handler: takes any JSON object; the plugin defines its parameters"
        } else if declarations != nil {
            out["problem"] = .string("the plugin declares no handler for \(intent)")
        }
        return .object(out)
    }

    static func legacy(_ d: IntentDefinition) -> [String: JSON] {
        var out: [String: JSON] = [
            "title": .string(d.title), "category": .string(d.category),
            "phrases": .array(d.examplePhrases.map { .string($0) }),
            "definition": .string(d.isStandard ? "standard intent" : (d.mark.keyPath != nil ? d.mark.description : "\(d.mark.file):\(d.mark.line)")),
        ]
        if let description = d.description { out["description"] = .string(description) }
        if let suggested = d.suggestedInvocationPhrase { out["suggested_phrase"] = .string(suggested) }
        out["parameters"] = .array(d.parameters.map { p in
            var o: [String: JSON] = ["name": .string(p.name), "title": .string(p.displayName),
                                     "type": .string(p.type.description), "optional": .bool(!p.required)]
            if p.multiple { o["multiple"] = true }
            if let v = p.defaultValue { o["default"] = v }
            if let v = p.minimum { o["min"] = .double(v) }
            if let v = p.maximum { o["max"] = .double(v) }
            if let v = p.description { o["description"] = .string(v) }
            if let v = p.prompts.primary { o["prompt"] = .string(v) }
            return .object(o)
        })
        out["codes"] = .array(d.codes.map { c in
            var o: [String: JSON] = ["name": .string(c.name), "success": .bool(c.success)]
            if let f = c.formatString { o["format"] = .string(f) }
            return .object(o)
        })
        return out
    }

    /// The description as people read it.
    static func render(_ body: JSON) -> String {
        let intent = body["intent"]?.displayText ?? "?"
        var out = ""
        for h in body["handlers"]?.arrayValue ?? [] {
            let style = h["style"]?.stringValue.map { $0 == "new" ? "new-style" : $0 } ?? "unknown style"
            out += "\(intent) — \(h["plugin"]?.displayText ?? "?") (\(style))\(h["disabled"] != nil ? " [disabled]" : "")\n"
            if let title = h["title"]?.stringValue {
                out += "  \"\(title)\"\(h["description"]?.stringValue.map { ": \($0)" } ?? "")\n"
            }
            for key in ["category", "definition", "migrated_from", "schema", "note", "problem"] {
                if let v = h[key]?.stringValue { out += "  \(key.replacingOccurrences(of: "_", with: " ")): \(v)\n" }
            }
            if h["discoverable"]?.boolValue == false { out += "  not discoverable: offered to no one, runs when called by name\n" }
            for sentence in summarySentences(h["summary"]) { out += "  summary: “\(sentence)”\n" }
            let phrases = (h["phrases"]?.arrayValue ?? []).map { "“\($0.displayText)”" }
            if !phrases.isEmpty { out += "  phrases: \(phrases.joined(separator: ", "))\n" }
            let shortcuts = (h["shortcut_phrases"]?.arrayValue ?? []).map { "“\($0.displayText)”" }
            if !shortcuts.isEmpty { out += "  app shortcut phrases: \(shortcuts.joined(separator: ", "))\n" }
            if let suggested = h["suggested_phrase"]?.stringValue { out += "  suggested phrase (Add to Siri): “\(suggested)”\n" }
            if let parameters = h["parameters"]?.arrayValue {
                out += parameters.isEmpty ? "  parameters: none\n" : "  parameters:\n"
                for p in parameters { out += "    " + parameterLine(p) + "\n" }
            }
            if let codes = h["codes"]?.arrayValue, !codes.isEmpty {
                out += "  response codes:\n"
                for c in codes {
                    out += "    \(c["name"]?.displayText ?? "?")\(c["success"]?.boolValue == true ? " (success)" : "")"
                    out += c["format"]?.stringValue.map { "  “\($0)”" } ?? ""
                    out += "\n"
                }
            }
        }
        return out
    }

    /// A parameter summary's sentences (every `When` branch), as declared: `${minutes}` slots.
    static func summarySentences(_ summary: JSON?) -> [String] {
        guard let summary else { return [] }
        if let text = summary["text"]?.stringValue { return [text] }
        return summarySentences(summary["then"]) + summarySentences(summary["otherwise"])
    }

    static func parameterLine(_ p: JSON) -> String {
        var type = p["type"]?.displayText ?? "?"
        if let e = p["entity"]?.stringValue ?? p["enum"]?.stringValue { type += " \(e)" }
        var extra: [String] = [p["optional"]?.boolValue == true ? "optional" : "required"]
        if p["multiple"]?.boolValue == true { extra.append("multiple") }
        if let d = p["default"] { extra.append("default \(d.displayText)") }
        if p["min"] != nil || p["max"] != nil {
            extra.append("range \(p["min"].map(number) ?? "")…\(p["max"].map(number) ?? "")")
        }
        var line = "\(p["name"]?.displayText ?? "?"): \(type) (\(extra.joined(separator: ", ")))"
        if let title = p["title"]?.stringValue { line += " — \(title)" }
        if let prompt = p["prompt"]?.stringValue { line += "; asks “\(prompt)”" }
        return line
    }

    /// 5 rather than 5.0 for whole numbers.
    private static func number(_ value: JSON) -> String {
        if let d = value.doubleValue, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return value.displayText
    }
}
