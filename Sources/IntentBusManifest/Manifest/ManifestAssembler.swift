import Foundation

/// The state of one `ManifestLoader` run: the diagnostics so far, the plugins decoded
/// so far (across files) and the ids already taken. The `host:` section is
/// `HostSectionReader`'s, which reports into the same context. Used by one thread, once.
package final class ManifestAssembler: ManifestReading {
    let context: YAMLDecodingContext
    /// The main file as the caller named it; diagnostics use this form.
    let manifestPath: String
    /// The main file, absolute and normalized.
    let absolutePath: String
    /// The directory every relative path resolves against.
    let directory: String

    /// Reads the main file's `host:` section (and keeps its `defaults` for `finish`).
    let hostReader: HostSectionReader
    private(set) var host: HostSettings?
    private(set) var plugins: [PluginSpec] = []
    /// The mark of each id's first declaration, for duplicate-id messages.
    var idMarks: [String: SourceMark] = [:]
    /// Files in load order; diagnostics are sorted by it.
    private(set) var files: [String] = []

    /// `curveAvailable`: whether the libzmq the host runs on has CURVE (a tcp endpoint
    /// without `insecure` needs it). This module does not link libzmq, so the loader's
    /// caller says.
    init(manifestPath: String, curveAvailable: Bool) {
        let context = YAMLDecodingContext()
        let absolutePath = Self.resolve(manifestPath, against: FileManager.default.currentDirectoryPath)
        let directory = (absolutePath as NSString).deletingLastPathComponent
        self.context = context
        self.manifestPath = manifestPath
        self.absolutePath = absolutePath
        self.directory = directory
        hostReader = HostSectionReader(context: context, directory: directory, curveAvailable: curveAvailable)
    }

    /// Parses and decodes the main file: an optional `host:` section and a required
    /// `plugins:` list.
    func loadMainFile(text: String) {
        files.append(manifestPath)
        guard let root = parse(text, file: manifestPath) else { return }
        context.mapping(root) { m -> Void in
            host = hostReader.read(m.node(for: "host"))
            guard let list = m.require("plugins", as: [YAMLNode].self) else { return }
            context.withPath(.key("plugins")) {
                for (index, item) in list.enumerated() {
                    context.withPath(.index(index)) { addPlugin(item) }
                }
            }
        }
    }

    /// Loads every `*.yaml` in `plugins.d/` beside the manifest, in file-name order.
    func loadDropIns() {
        let dropInDirectory = (directory as NSString).appendingPathComponent(ManifestLoader.dropInDirectoryName)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dropInDirectory, isDirectory: &isDirectory),
              isDirectory.boolValue
        else { return }

        let displayDirectory = (
            (manifestPath as NSString).deletingLastPathComponent as NSString
        ).appendingPathComponent(ManifestLoader.dropInDirectoryName)
        if let problem = ConfigFileTrust.problem(dropInDirectory) {
            return context.error(problem, at: SourceMark(file: manifestPath, line: 1, column: 1))
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dropInDirectory).sorted()
        } catch {
            context.error(
                "cannot list \(displayDirectory): \(ManifestLoader.readFailureReason(dropInDirectory, error))",
                at: SourceMark(file: manifestPath, line: 1, column: 1))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let displayPath = (displayDirectory as NSString).appendingPathComponent(name)
            let fullPath = (dropInDirectory as NSString).appendingPathComponent(name)
            guard name.hasSuffix(".yaml") else {
                if name.hasSuffix(".yml") {
                    context.warning(
                        "ignored: drop-in files must end in .yaml", at: SourceMark(file: displayPath, line: 1, column: 1))
                }
                continue
            }
            var isSubdirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fullPath, isDirectory: &isSubdirectory),
                  !isSubdirectory.boolValue
            else { continue }
            loadDropIn(fullPath: fullPath, displayPath: displayPath)
        }
    }

    /// A drop-in holds either one plugin mapping or a `plugins:` list.
    private func loadDropIn(fullPath: String, displayPath: String) {
        files.append(displayPath)
        if let problem = ConfigFileTrust.problem(fullPath) {
            return context.error(problem, at: SourceMark(file: displayPath, line: 1, column: 1))
        }
        let text: String
        do {
            text = try String(contentsOfFile: fullPath, encoding: .utf8)
        } catch {
            context.error(
                "cannot read the drop-in: \(ManifestLoader.readFailureReason(fullPath, error))",
                at: SourceMark(file: displayPath, line: 1, column: 1))
            return
        }
        guard let root = parse(text, file: displayPath) else { return }
        guard let rootPairs = root.mapping else {
            context.typeMismatch(expected: "a mapping (one plugin, or a 'plugins:' list)", got: root)
            return
        }
        let hasList = rootPairs.contains { $0.key.scalar?.text == "plugins" }
        guard hasList else {
            addPlugin(root)
            return
        }
        context.mapping(root) { m -> Void in
            if let hostMark = m.keyMark(for: "host") {
                m.allow("host")
                context.error("host settings belong in the main manifest, not in a drop-in", at: hostMark)
            }
            guard let list = m.require("plugins", as: [YAMLNode].self) else { return }
            context.withPath(.key("plugins")) {
                for (index, item) in list.enumerated() {
                    context.withPath(.index(index)) { addPlugin(item) }
                }
            }
        }
    }

    /// Decodes one plugin entry and keeps it if it is valid.
    private func addPlugin(_ node: YAMLNode) {
        if let plugin = decodePlugin(node) { plugins.append(plugin) }
    }

    /// The manifest, or every error found.
    func finish() throws(ConfigError) -> Manifest {
        if plugins.isEmpty, !context.hasErrors {
            context.warning(
                "no plugins declared; the host will answer every request with unknown_intent",
                at: SourceMark(file: manifestPath, line: 1, column: 1))
        }
        var settings = host ?? hostReader.defaultSettings()
        settings.presetDefaults = checkPresetDefaults()
        checkMajordomoWorkers(settings)
        let errors = context.errors
        if !errors.isEmpty { throw ConfigError(sortedByPosition(errors)) }
        return Manifest(
            path: absolutePath,
            host: settings,
            plugins: plugins,
            warnings: sortedByPosition(context.warnings),
            files: files)
    }

    /// Parses one file, reporting a syntax error instead of throwing it.
    private func parse(_ text: String, file: String) -> YAMLNode? {
        do {
            return try YAMLParser.parseDocument(text, file: file)
        } catch {
            error.diagnostics.forEach(context.report)
            return nil
        }
    }

    /// Orders diagnostics by file (load order), line and column, so that the output
    /// reads top to bottom however decoding happened to find them.
    private func sortedByPosition(_ diagnostics: [ConfigDiagnostic]) -> [ConfigDiagnostic] {
        let fileOrder = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return diagnostics.enumerated().sorted { a, b in
            let keyA = (fileOrder[a.element.mark.file] ?? Int.max, a.element.mark.line, a.element.mark.column, a.offset)
            let keyB = (fileOrder[b.element.mark.file] ?? Int.max, b.element.mark.line, b.element.mark.column, b.offset)
            return keyA < keyB
        }.map(\.element)
    }

    /// Makes `path` absolute against `base` (after expanding `~`) and removes `.`,
    /// `..` and repeated slashes.
    ///
    /// Purely textual on purpose: `NSString.standardizingPath` also resolves symlinks
    /// of existing paths on Linux, which would turn `.build/debug/plugin-echo` into
    /// `.build/x86_64-unknown-linux-gnu/debug/plugin-echo` and pin the target the link
    /// had at load time.
    static func resolve(_ path: String, against base: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let absolute = expanded.hasPrefix("/") ? expanded : base + "/" + expanded
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
