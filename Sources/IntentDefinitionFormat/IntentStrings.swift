import Foundation
import IntentBusCore

/// The `<lang>.lproj/Intents.strings` tables beside an `.intentdefinition`: each maps a
/// text's `…ID` (`"2yevCF" = "Welche Pipeline möchtest du verwenden?";`) to that
/// language's text.
package struct IntentStrings: Sendable {
    /// Language (the `.lproj` folder's name: `de`, `pt-BR`) → ID → text.
    package var tables: [String: [String: String]]
    /// Where each table came from, for diagnostics.
    package var files: [String: String]

    package init(tables: [String: [String: String]] = [:], files: [String: String] = [:]) {
        self.tables = tables
        self.files = files
    }

    /// The folder Xcode keeps localizations in for `definitionPath`: the parent of its
    /// `Base.lproj` (or `en.lproj`), else the definition's own folder.
    package static func localizationRoot(of definitionPath: String) -> String {
        let folder = (definitionPath as NSString).deletingLastPathComponent
        return folder.hasSuffix(".lproj") ? (folder as NSString).deletingLastPathComponent : folder
    }

    /// Reads every `<lang>.lproj/<name>.strings` beside the definition at `definitionPath`
    /// (`name` is the definition's file name without its extension). A table that is not
    /// a strings file is an error naming it; the other tables still load.
    /// A table larger than `maximumBytes` is an error, not read: Foundation parses it whole.
    package static func load(besides definitionPath: String, maximumBytes: Int = 4 << 20,
                             shownAs shown: (String) -> String) -> (IntentStrings, [FormatDiagnostic]) {
        let root = localizationRoot(of: definitionPath)
        let name = ((definitionPath as NSString).lastPathComponent as NSString).deletingPathExtension + ".strings"
        var strings = IntentStrings()
        var diagnostics: [FormatDiagnostic] = []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for folder in folders.sorted() where folder.hasSuffix(".lproj") && folder != "Base.lproj" {
            let path = "\(root)/\(folder)/\(name)"
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            if let size, size > maximumBytes {
                diagnostics.append(FormatDiagnostic(file: shown(path), keyPath: "", "has \(size) bytes; at most \(maximumBytes) are read"))
                continue
            }
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let language = String(folder.dropLast(".lproj".count))
            do throws(DefinitionFormatError) {
                let table = try PropertyListJSON.read(data, file: shown(path))
                guard let entries = table.objectValue else {
                    diagnostics.append(FormatDiagnostic(file: shown(path), keyPath: "", "a strings table maps IDs to texts; this is \(table.typeName)"))
                    continue
                }
                var texts: [String: String] = [:]
                for (id, value) in entries {
                    guard let text = value.stringValue else {
                        diagnostics.append(FormatDiagnostic(file: shown(path), keyPath: id, "expected a string, got \(value.typeName)"))
                        continue
                    }
                    texts[id] = text
                }
                strings.tables[language] = texts
                strings.files[language] = shown(path)
            } catch {
                diagnostics.append(error.diagnostic)
            }
        }
        return (strings, diagnostics)
    }

    /// The language a client's locale (`de_DE`, `de-AT`, `pt-BR`, `fr`) reads in: an exact
    /// table, else its language alone; nil when there is none (the definition's own texts).
    package func language(for locale: String) -> String? {
        let normalized = locale.replacingOccurrences(of: "_", with: "-")
        if tables[normalized] != nil { return normalized }
        let language = String(normalized.prefix { $0 != "-" })
        return tables[language] != nil ? language : nil
    }

    /// `definition` with every text that has an `…ID` key replaced by `language`'s text.
    /// An ID the table lacks keeps the development language's text, with a warning.
    package func localize(_ definition: JSON, into language: String, file: String) -> (JSON, [FormatDiagnostic]) {
        guard let table = tables[language] else { return (definition, []) }
        var missing: [(path: String, id: String)] = []
        let tableFile = files[language] ?? "\(language).lproj"
        func walk(_ value: JSON, _ path: String) -> JSON {
            switch value {
            case .array(let items):
                return .array(items.enumerated().map { walk($1, "\(path)[\($0)]") })
            case .object(var object):
                for key in object.keys.sorted() {
                    let p = path.isEmpty ? key : "\(path).\(key)"
                    if key.hasSuffix("ID"), key.count > 2, let id = object[key]?.stringValue {
                        let base = String(key.dropLast(2))
                        if let text = table[id] {
                            object[base] = .string(text)
                        } else if object[base] != nil {
                            missing.append((p, id))
                        }
                    } else {
                        object[key] = walk(object[key] ?? .null, p)
                    }
                }
                return .object(object)
            default:
                return value
            }
        }
        let localized = walk(definition, "")
        // One warning per table: a translation behind the definition lacks many texts at once.
        guard let first = missing.first else { return (localized, []) }
        let shown = missing.prefix(5).map { "\"\($0.id)\"" }.joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
        return (localized, [FormatDiagnostic(file: file, keyPath: first.path,
            "\(tableFile) has no entry for \(missing.count) text(s) (\(shown)); they keep the development language's text",
            severity: .warning)])
    }
}
