import Foundation
import IntentBusManifest
import IntentDefinitionFormat

/// Xcode's `.intentdefinition` form: read with `IntentDefinitionFormat`, then checked by
/// the same `DefinitionAssembler` as the YAML form, once in the file's own language and
/// once per `<lang>.lproj/Intents.strings` beside it.
extension DefinitionLoader {
    /// The file's definitions in its development language, and in each translation.
    package struct XcodeResult: Sendable {
        package var file: FileResult
        package var localized: [String: [IntentDefinition]]
    }

    /// The language an `.intentdefinition`'s own texts are in: the `.lproj` folder it
    /// lies in (`en.lproj`), English for `Base.lproj` or none (Xcode's default
    /// development language).
    static func developmentLanguage(of path: String) -> String {
        let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
        guard folder.hasSuffix(".lproj"), folder != "Base.lproj" else { return "en" }
        return String(folder.dropLast(".lproj".count))
    }

    /// Decodes the `.intentdefinition` whose bytes are `data`, at `path`, naming it
    /// `file` (and other files by `shownAs`) in diagnostics.
    package static func decodeXcode(_ data: Data, path: String, file: String,
                                   shownAs: (String) -> String = { $0 }) -> XcodeResult {
        let read = XcodeDefinitionFile.read(data, path: path, shown: file, maximumBytes: DefinitionLimits.xcodeFileBytes, shownAs: shownAs)
        var diagnostics = read.diagnostics.map(diagnostic)
        guard let shape = read.shape, read.errors.isEmpty else {
            return XcodeResult(file: FileResult(definitions: [], diagnostics: diagnostics), localized: [:])
        }
        let base = assemble(shape, file: file, language: developmentLanguage(of: path))
        diagnostics += base.diagnostics
        var localized: [String: [IntentDefinition]] = [:]
        let seen = Set(diagnostics.map(\.description))
        for (language, translated) in read.localized {
            let result = assemble(translated, file: file, language: language)
            // A translation's own mistakes (a placeholder it renamed) are errors too;
            // what the base already reported is not repeated.
            diagnostics += result.errors.filter { !seen.contains($0.description) }
            localized[language] = result.definitions
        }
        return XcodeResult(file: FileResult(definitions: base.definitions, diagnostics: diagnostics), localized: localized)
    }

    /// Reads an `.intentdefinition`'s bytes, bounded by `DefinitionLimits.xcodeFileBytes`.
    static func readXcodeFile(_ path: String, shown: String, plugin: PluginSpec, into diagnostics: inout [ConfigDiagnostic]) -> Data? {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, size > DefinitionLimits.xcodeFileBytes {
            diagnostics.append(ConfigDiagnostic(plugin.mark,
                "plugin \(plugin.id): the definition file \(shown) has \(size) bytes; at most \(DefinitionLimits.xcodeFileBytes) are read"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.append(ConfigDiagnostic(plugin.mark, "plugin \(plugin.id): cannot read the definition file \(shown)"))
            return nil
        }
        return data
    }

    /// The shape through `DefinitionAssembler`, its dialogs rendering in `language`.
    private static func assemble(_ shape: ShapedNode, file: String, language: String) -> FileResult {
        var root = shape
        let identifier = language.replacingOccurrences(of: "-", with: "_")
        // A language Foundation has no data for keeps neutral rendering rather than failing the file.
        if (try? DialogLocale(identifier: identifier)) != nil, case .map(var entries) = root.value {
            entries.insert(.init("locale", .scalar(.string(identifier), origin: "")), at: 0)
            root.value = .map(entries)
        }
        let context = YAMLDecodingContext()
        let nodes = XcodeDefinitionBridge.nodes(root, file: file)
        let definitions = DefinitionAssembler(context: context, file: file, isStandard: false).decode(document: nodes)
        return FileResult(definitions: definitions, diagnostics: context.diagnostics)
    }

    static func diagnostic(_ d: FormatDiagnostic) -> ConfigDiagnostic {
        ConfigDiagnostic(SourceMark(file: d.file, keyPath: d.keyPath), d.message, severity: d.severity == .error ? .error : .warning)
    }
}
