import Foundation

extension ManifestLoader {
    /// Only the main file's `host:` section, for client commands (`send`, `plugins`, …),
    /// which need the host's endpoint and nothing else: the `plugins:` list and the
    /// drop-ins are not read, so a broken drop-in (which the running host has rejected
    /// or not yet seen) never stops a client from reaching the host.
    ///
    /// Throws only for what makes the endpoint unknowable: an unreadable main file, a
    /// YAML syntax error in it, or an error inside `host:`. `curveAvailable` as for `load`.
    package static func loadHostSettings(path: String, curveAvailable: Bool = true) throws(ConfigError) -> HostSettings {
        try ManifestAssembler(manifestPath: path, curveAvailable: curveAvailable).hostSettingsOnly(text: readManifest(path))
    }
}

extension ManifestAssembler {
    /// Decodes the `host:` section of the main file and ignores everything else in it.
    func hostSettingsOnly(text: String) throws(ConfigError) -> HostSettings {
        let root: YAMLNode
        do {
            root = try YAMLParser.parseDocument(text, file: manifestPath)
        } catch {
            throw ConfigError(error.diagnostics)
        }
        let hostNode = root.mapping?.first { $0.key.scalar?.text == "host" }?.value
        let settings = decodeHost(hostNode)
        let errors = context.errors
        if !errors.isEmpty { throw ConfigError(errors) }
        return settings
    }
}
