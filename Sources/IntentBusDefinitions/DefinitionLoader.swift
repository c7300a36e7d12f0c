import Foundation
import IntentBusManifest
import IntentDefinitionFormat

/// The intent definitions the host knows: the built-in standard-domain intents, and
/// each plugin's custom intents from the files its manifest entry lists under
/// `definitions:`. Immutable after loading; safe to share between threads.
package struct DefinitionCatalog: Sendable {
    /// Custom definitions, by plugin id, then intent name.
    package var byPlugin: [String: [String: IntentDefinition]]
    /// The same definitions in each language an `.intentdefinition`'s `Intents.strings`
    /// translate it into: plugin id → intent name → language (`de`) → definition.
    package var localized: [String: [String: [String: IntentDefinition]]] = [:]
    /// Non-fatal findings (e.g. more than 5 parameters), with `file:line:column`.
    package var warnings: [ConfigDiagnostic]

    package init(byPlugin: [String: [String: IntentDefinition]] = [:], warnings: [ConfigDiagnostic] = []) {
        self.byPlugin = byPlugin
        self.warnings = warnings
    }

    /// The definition that governs `intent` when `plugin` handles it: the plugin's own
    /// custom definition, else the standard intent of that name.
    package func definition(of intent: String, plugin: String) -> IntentDefinition? {
        byPlugin[plugin]?[intent] ?? StandardIntents.definitions[intent]
    }

    /// The definition in the client's `locale` (`de_DE`, `de-AT`, `de`): its language's
    /// translation when the plugin's `.intentdefinition` has one, else `definition(of:plugin:)`.
    package func definition(of intent: String, plugin: String, locale: String?) -> IntentDefinition? {
        if let locale, let translations = localized[plugin]?[intent] {
            let normalized = locale.replacingOccurrences(of: "_", with: "-")
            let language = String(normalized.prefix { $0 != "-" })
            if let found = translations[normalized] ?? translations[language] { return found }
        }
        return definition(of: intent, plugin: plugin)
    }
}

/// Reads intent definition files (docs/definitions.md), the YAML counterpart of
/// Xcode's `.intentdefinition`, and checks them, reporting every problem as
/// `file:line:column: error: message`.
///
/// Safe to call from any thread: each call has its own decoding state.
package enum DefinitionLoader {
    /// The result of decoding one file: the intents that decoded cleanly and every
    /// diagnostic (errors and warnings) found.
    package struct FileResult: Sendable {
        package var definitions: [IntentDefinition]
        package var diagnostics: [ConfigDiagnostic]
        package var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }
        package var warnings: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    }

    /// Decodes the definition file whose content is `text`, naming it `file` in
    /// diagnostics. `standard` is for the built-in standard intents only.
    package static func decode(text: String, file: String, standard: Bool = false) -> FileResult {
        let context = YAMLDecodingContext()
        let definitions = DefinitionAssembler(context: context, file: file, isStandard: standard).decode(text: text)
        return FileResult(definitions: definitions, diagnostics: sortedByPosition(context.diagnostics))
    }

    /// Loads every definition file the manifest's plugins list, and checks them
    /// against the manifest:
    /// - each file parses and follows the schema (duplicate codes, unknown
    ///   placeholders, bad types and ranges are errors; more than 5 parameters a warning);
    /// - a plugin defines an intent once, and never a standard intent's name;
    /// - an intent defined but not in the plugin's `IntentsSupported` gets a warning.
    ///
    /// (That `IntentsRestrictedWhileLocked` is a subset of `IntentsSupported` is
    /// checked by `ManifestLoader` already.)
    ///
    /// - Throws: `ConfigError` with every error, in file and position order.
    package static func load(manifest: Manifest) throws(ConfigError) -> DefinitionCatalog {
        var diagnostics: [ConfigDiagnostic] = []
        var byPlugin: [String: [String: IntentDefinition]] = [:]
        var localized: [String: [String: [String: IntentDefinition]]] = [:]
        for plugin in manifest.plugins {
            var intents: [String: IntentDefinition] = [:]
            for path in plugin.definitions {
                let shown = displayPath(path, manifest: manifest)
                if let problem = ConfigFileTrust.problem(path) {
                    diagnostics.append(ConfigDiagnostic(plugin.mark, "plugin \(plugin.id): definition file \(problem)"))
                    continue
                }
                let result: FileResult
                if XcodeDefinitionFile.isXcodeDefinition(path) {
                    guard let data = readXcodeFile(path, shown: shown, plugin: plugin, into: &diagnostics) else { continue }
                    let xcode = decodeXcode(data, path: path, file: shown) { displayPath($0, manifest: manifest) }
                    result = xcode.file
                    for (language, definitions) in xcode.localized {
                        for definition in definitions { localized[plugin.id, default: [:]][definition.name, default: [:]][language] = definition }
                    }
                } else {
                    let text: String
                    do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                        diagnostics.append(ConfigDiagnostic(plugin.mark,
                            "plugin \(plugin.id): cannot read the definition file \(shown): \(ManifestLoader.readFailureReason(path, error))"))
                        continue
                    }
                    result = decode(text: text, file: shown)
                }
                diagnostics += result.diagnostics
                for definition in result.definitions {
                    if StandardIntents.definitions[definition.name] != nil {
                        diagnostics.append(ConfigDiagnostic(definition.mark,
                            "'\(definition.name)' is a built-in standard intent; its shape is fixed and needs no definition (rename the custom intent)"))
                    } else if let first = intents[definition.name] {
                        diagnostics.append(ConfigDiagnostic(definition.mark,
                            "plugin \(plugin.id) defines '\(definition.name)' twice (first at \(first.mark))"))
                    } else {
                        if !plugin.intentsSupported.contains(definition.name) {
                            diagnostics.append(ConfigDiagnostic(definition.mark,
                                "'\(definition.name)' is defined but plugin \(plugin.id) does not list it in IntentsSupported; no request will reach it",
                                severity: .warning))
                        }
                        intents[definition.name] = definition
                    }
                }
            }
            if !intents.isEmpty { byPlugin[plugin.id] = intents }
        }
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { throw ConfigError(errors) }
        var catalog = DefinitionCatalog(byPlugin: byPlugin, warnings: diagnostics.filter { $0.severity == .warning })
        catalog.localized = localized
        return catalog
    }

    /// Names a file relative to the manifest's directory when it lies below it, so that
    /// diagnostics read `definitions/balance.yaml:12:5`.
    static func displayPath(_ path: String, manifest: Manifest) -> String {
        let directory = (manifest.path as NSString).deletingLastPathComponent + "/"
        return path.hasPrefix(directory) ? String(path.dropFirst(directory.count)) : path
    }

    static func sortedByPosition(_ diagnostics: [ConfigDiagnostic]) -> [ConfigDiagnostic] {
        diagnostics.enumerated().sorted { a, b in
            (a.element.mark.file, a.element.mark.line, a.element.mark.column, a.offset)
                < (b.element.mark.file, b.element.mark.line, b.element.mark.column, b.offset)
        }.map(\.element)
    }
}
