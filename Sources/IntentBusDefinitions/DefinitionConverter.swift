import Foundation
import IntentBusCore
import IntentBusManifest
import IntentDefinitionFormat

/// `intentbus definitions convert`: writes an intent definition in the other form, the
/// YAML form from an `.intentdefinition` and back, with nothing of meaning lost (both go
/// through the one shape `IntentDefinitionFormat` defines; Xcode's bookkeeping — tags,
/// priorities, namespaces — is written afresh). The input is checked as the host checks
/// it first: a file the host would refuse is not converted.
package enum DefinitionConverter {
    /// The converted file: its bytes, and what the input's check warned about.
    package struct Output: Sendable {
        package var data: Data
        /// `yaml` or `intentdefinition`: the form written.
        package var form: String
        package var warnings: [ConfigDiagnostic]
    }

    /// Converts the file at `path`, named `shown` in diagnostics.
    /// - Throws: `ConfigError` with every error of the input.
    package static func convert(path: String, shown: String) throws(ConfigError) -> Output {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError([ConfigDiagnostic(SourceMark(file: shown, line: 0, column: 0), "cannot read \(shown)")])
        }
        if XcodeDefinitionFile.isXcodeDefinition(path) {
            guard data.count <= DefinitionLimits.xcodeFileBytes else {
                throw ConfigError([ConfigDiagnostic(SourceMark(file: shown, keyPath: ""), "more than \(DefinitionLimits.xcodeFileBytes) bytes")])
            }
            let checked = DefinitionLoader.decodeXcode(data, path: path, file: shown)
            if !checked.file.errors.isEmpty { throw ConfigError(checked.file.errors) }
            guard let shape = XcodeDefinitionFile.read(data, path: path, shown: shown, localize: false).shape else {
                throw ConfigError([ConfigDiagnostic(SourceMark(file: shown, keyPath: ""), "not an intent definition")])
            }
            let header = """
                # Converted from \((path as NSString).lastPathComponent) by `intentbus definitions convert`.
                # The …ID keys are the Intents.strings IDs of the texts; docs/definitions.md.

                """
            return Output(data: Data(yaml(shape, header: header).utf8), form: "yaml", warnings: checked.file.warnings)
        }
        let (plist, warnings) = try xcodeRoot(yaml: data, shown: shown)
        return Output(data: PropertyListJSON.xml(plist), form: "intentdefinition", warnings: warnings)
    }

    /// A YAML definition as the property-list tree of the `.intentdefinition` it converts
    /// to: what `intentbus-intentgen` generates the classes of a YAML definition from, so
    /// that both forms give the same Swift.
    /// - Throws: `ConfigError` with every error the host would report for the file.
    package static func xcodeRoot(yaml data: Data, shown: String) throws(ConfigError) -> (root: JSON, warnings: [ConfigDiagnostic]) {
        let text = String(decoding: data, as: UTF8.self)
        let checked = DefinitionLoader.decode(text: text, file: shown)
        if !checked.errors.isEmpty { throw ConfigError(checked.errors) }
        let root: YAMLNode
        do { root = try YAMLParser.parseDocument(text, file: shown) } catch { throw error }
        return (xcodePlist(XcodeDefinitionBridge.shape(root)), checked.warnings)
    }

    /// The shape as YAML text.
    static func yaml(_ shape: ShapedNode, header: String = "") -> String {
        XcodeDefinitionBridge.yaml(shape, header: header)
    }

    /// The shape as an `.intentdefinition` (XML property list). The YAML form's `locale:`
    /// has no key there: an `.intentdefinition`'s language is its `.lproj` folder's.
    static func intentDefinition(_ shape: ShapedNode) -> Data { PropertyListJSON.xml(xcodePlist(shape)) }

    private static func xcodePlist(_ shape: ShapedNode) -> JSON {
        var shape = shape
        if case .map(let entries) = shape.value { shape.value = .map(entries.filter { $0.key != "locale" }) }
        return XcodeShapeWriter.plist(shape)
    }
}
