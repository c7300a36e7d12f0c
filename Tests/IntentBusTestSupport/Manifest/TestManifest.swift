/// A plugins.yaml for a test, built from typed parts so that a test says only what differs
/// from the usual shape: a `host:` section (the state directory beside the manifest, so
/// that each test's host has its own ipc endpoints) and a list of plugins.
///
///     let host = try TestHost(TestManifest(.test("alpha"), .test("beta", intents: ["B"]).priority(5),
///                                          host: .init(conversationTimeout: "500ms")))
///
/// `yaml` renders it. Manifests that test the loader's own diagnostics keep their literal
/// text: this builder only writes valid shapes.
package struct TestManifest {
    package var host: Host
    package var plugins: [Plugin]

    package init(_ plugins: [Plugin], host: Host = Host()) {
        self.host = host
        self.plugins = plugins
    }

    package init(_ plugins: Plugin..., host: Host = Host()) {
        self.init(plugins, host: host)
    }

    /// The manifest's text.
    package var yaml: String {
        var lines = ["host:"] + host.lines.map { "  " + $0 }
        if plugins.isEmpty {
            lines.append("plugins: []")
        } else {
            lines.append("plugins:")
            for plugin in plugins { lines += plugin.lines.map { "  " + $0 } }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same manifest with `change` applied to the plugin `id` (which must be there).
    package func changing(_ id: String, _ change: (inout Plugin) -> Void) -> TestManifest {
        var copy = self
        guard let index = copy.plugins.firstIndex(where: { $0.id == id }) else {
            preconditionFailure("TestManifest has no plugin \(id)")
        }
        change(&copy.plugins[index])
        return copy
    }
}

extension TestManifest {
    /// The `host:` section. `stateDir` is relative to the manifest unless absolute; the
    /// host puts its sockets there (`ipc://<dir>/state/frontend.sock`).
    package struct Host {
        package var stateDir: String
        package var conversationTimeout: String?
        package var clientCredential: String?
        /// `defaults:`: intent → plugin.
        package var defaults: [String: String]
        /// Further lines of the section as they are, relative to it (`drain_timeout: 5s`;
        /// a nested mapping indents its own lines).
        package var extra: [String]

        package init(stateDir: String = "state", conversationTimeout: String? = nil, clientCredential: String? = nil,
                     defaults: [String: String] = [:], extra: [String] = []) {
            self.stateDir = stateDir
            self.conversationTimeout = conversationTimeout
            self.clientCredential = clientCredential
            self.defaults = defaults
            self.extra = extra
        }

        var lines: [String] {
            var lines = ["state_dir: \(YAMLScalar.render(stateDir))"]
            if let conversationTimeout { lines.append("conversation_timeout: \(conversationTimeout)") }
            if let clientCredential { lines.append("client_credential: \(YAMLScalar.render(clientCredential))") }
            if !defaults.isEmpty {
                lines.append("defaults:")
                for (intent, plugin) in defaults.sorted(by: { $0.key < $1.key }) {
                    lines.append("  \(YAMLScalar.render(intent)): \(YAMLScalar.render(plugin))")
                }
            }
            return lines + extra.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        }
    }
}
