import Foundation

extension ManifestLoader {
    /// Only the main file's `host:` section, for client commands (`send`, `plugins`, …),
    /// which need the host's endpoint and nothing else: the `plugins:` list and the
    /// drop-ins are not read, so a broken drop-in (which the running host has rejected
    /// or not yet seen) never stops a client from reaching the host.
    ///
    /// The file is streamed (`YAMLTopLevelReader`): no tree is built but `host:`'s, and
    /// reading stops at its end, so a client's memory and time don't grow with the
    /// manifest (issue 24; docs/reliability.md). What streaming can't decide (a syntax
    /// error before `host:` ends, an alias reaching outside it, …) falls back to parsing
    /// the whole file, which reports it as before.
    ///
    /// Throws only for what makes the endpoint unknowable: an unreadable or untrusted
    /// main file, a YAML syntax error in it up to the end of `host:`, or an error inside
    /// `host:`. `curveAvailable` as for `load`.
    package static func loadHostSettings(path: String, curveAvailable: Bool = true) throws(ConfigError) -> HostSettings {
        let reader = HostSectionReader(manifestPath: path, curveAvailable: curveAvailable)
        if ConfigFileTrust.problem(path) == nil,
           case .found(let hostNode, _) = YAMLTopLevelReader.value(forKey: "host", inFile: path) {
            return try reader.settings(from: hostNode)
        }
        return try reader.settingsOnly(text: readManifest(path), file: path)
    }
}

extension HostSectionReader {
    /// A reader of its own, for the `host:` section alone: its own decoding context,
    /// relative paths against the directory of `manifestPath`.
    convenience init(manifestPath: String, curveAvailable: Bool) {
        let absolute = ManifestAssembler.resolve(manifestPath, against: FileManager.default.currentDirectoryPath)
        self.init(context: YAMLDecodingContext(), directory: (absolute as NSString).deletingLastPathComponent,
                  curveAvailable: curveAvailable)
    }

    /// Decodes the `host:` section of the main file (`text`, read from `file`) and ignores
    /// everything else in it.
    func settingsOnly(text: String, file: String) throws(ConfigError) -> HostSettings {
        let root: YAMLNode
        do {
            root = try YAMLParser.parseDocument(text, file: file)
        } catch {
            throw ConfigError(error.diagnostics)
        }
        return try settings(from: root.mapping?.first { $0.key.scalar?.text == "host" }?.value)
    }

    /// Decodes a `host:` node (nil: none, the defaults) or throws its errors.
    func settings(from hostNode: YAMLNode?) throws(ConfigError) -> HostSettings {
        let settings = read(hostNode)
        let errors = context.errors
        if !errors.isEmpty { throw ConfigError(errors) }
        return settings
    }
}
