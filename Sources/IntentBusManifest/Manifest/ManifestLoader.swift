import Foundation

/// Reads `plugins.yaml` and its drop-ins into a `Manifest`.
///
/// Loading reports every problem at once: a `ConfigError` holds one
/// `file:line:column: error: message` diagnostic per problem, across the main file and
/// all drop-ins. Warnings do not stop loading; they end up in `Manifest.warnings`.
/// The schema is documented in `docs/manifest.md`.
///
/// Drop-ins: every `*.yaml` file in a `plugins.d/` directory beside the manifest is
/// loaded too, in file-name order, after the main file. Each holds either a single
/// plugin mapping or a `plugins:` list. Relative paths in drop-ins resolve against the
/// main manifest's directory, like everything else.
///
/// Loading touches the file system only to read files and to look at paths (whether
/// an executable exists, `PATH` lookup for a bare program name); it is safe to call
/// from any thread.
package enum ManifestLoader {
    /// The name of the drop-in directory beside the manifest.
    package static let dropInDirectoryName = "plugins.d"

    /// Loads the manifest at `path` and the drop-ins beside it.
    ///
    /// Diagnostics name files as `path` names them (so a relative `path` gives relative
    /// names); `Manifest.path` is absolute. `curveAvailable` is whether the libzmq the
    /// host runs on has CURVE (`CurveKeyPair.isAvailable`): this module does not link
    /// libzmq, so the host, which does, passes it; Debian's libzmq has it, hence the default
    /// for tests and the fuzz target.
    package static func load(path: String, curveAvailable: Bool = true) throws(ConfigError) -> Manifest {
        try load(text: readManifest(path), path: path, curveAvailable: curveAvailable)
    }

    /// The main manifest's text, or a diagnostic at its first line saying why not.
    static func readManifest(_ path: String) throws(ConfigError) -> String {
        if let problem = ConfigFileTrust.problem(path) {
            throw ConfigError([ConfigDiagnostic(SourceMark(file: path, line: 1, column: 1), problem)])
        }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError([ConfigDiagnostic(
                SourceMark(file: path, line: 1, column: 1), "cannot read the manifest: \(readFailureReason(path, error))")])
        }
    }

    /// Loads a manifest whose content is `text`, as if it were the file at `path`:
    /// relative paths resolve against `path`'s directory, and drop-ins in the
    /// `plugins.d/` beside `path` are loaded if that directory exists.
    package static func load(text: String, path: String, curveAvailable: Bool = true) throws(ConfigError) -> Manifest {
        let assembler = ManifestAssembler(manifestPath: path, curveAvailable: curveAvailable)
        assembler.loadMainFile(text: text)
        assembler.loadDropIns()
        return try assembler.finish()
    }

    /// Why a file could not be read, in words: "no such file", not a Cocoa error dump.
    package static func readFailureReason(_ path: String, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        if let cocoa = error as? CocoaError, cocoa.code == .fileReadInapplicableStringEncoding {
            return "it is not UTF-8 text"
        }
        return error.localizedDescription
    }
}
