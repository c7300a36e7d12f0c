import Foundation
import IntentBusCore

/// One `.intentdefinition` file read: its shape in each language it is localized in,
/// and every finding. The entry point the host, the `convert` command and the code
/// generator share.
package struct XcodeDefinitionFile: Sendable {
    /// The file's own texts (its development language).
    package var shape: ShapedNode?
    /// The shape with each `<lang>.lproj/Intents.strings` applied, by language.
    package var localized: [String: ShapedNode]
    package var diagnostics: [FormatDiagnostic]
    package var errors: [FormatDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Whether `path` names a file in Xcode's form (by its extension).
    package static func isXcodeDefinition(_ path: String) -> Bool { path.hasSuffix(".intentdefinition") }

    /// Reads `data` as the definition at `path` (shown as `shown` in diagnostics), with
    /// the strings tables beside it when `localize` is set.
    package static func read(_ data: Data, path: String, shown: String, localize: Bool = true, maximumBytes: Int = 4 << 20,
                             shownAs: (String) -> String = { $0 }) -> XcodeDefinitionFile {
        let root: JSON
        do throws(DefinitionFormatError) { root = try PropertyListJSON.read(data, file: shown) } catch {
            return XcodeDefinitionFile(shape: nil, localized: [:], diagnostics: [error.diagnostic])
        }
        let reader = XcodeShapeReader(file: shown)
        let shape = reader.read(root)
        var diagnostics = reader.diagnostics
        var localized: [String: ShapedNode] = [:]
        if localize, shape != nil, !diagnostics.contains(where: { $0.severity == .error }) {
            let (strings, problems) = IntentStrings.load(besides: path, maximumBytes: maximumBytes, shownAs: shownAs)
            diagnostics += problems
            for language in strings.tables.keys.sorted() {
                let (text, warnings) = strings.localize(root, into: language, file: shown)
                diagnostics += warnings
                // Same structure as the original, so its problems were reported once already.
                localized[language] = XcodeShapeReader(file: shown).read(text)
            }
        }
        return XcodeDefinitionFile(shape: shape, localized: localized, diagnostics: diagnostics)
    }
}
