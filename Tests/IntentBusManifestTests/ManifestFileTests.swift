import Foundation
import Testing
@testable import IntentBusManifest
import IntentBusTestSupport

/// Manifest files as files: syntax errors with positions, empty and missing files, drop-ins
/// in order, paths and symlinks, the demo manifest.
@Suite("Manifest files")
struct ManifestFileTests {
    @Test func yamlSyntaxErrorHasLineAndColumn() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            plugins:
              - id: echo
                exec: /bin/true
               IntentsSupported: [EchoIntent]
            """, [
            "$DIR/plugins.yaml:4:4: error: YAML syntax error: did not find expected '-' indicator (while parsing a block collection at line 2, column 3)",
        ])
    }

    @Test func emptyAndMissingFiles() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("", ["$DIR/plugins.yaml:1:1: error: the file is empty; expected a YAML document"])
        #expect {
            _ = try ManifestLoader.load(path: "\(dir.path)/absent.yaml")
        } throws: { error in
            (error as? ConfigError)?.description == "\(dir.path)/absent.yaml:1:1: error: cannot read the manifest: no such file"
        }
    }

    @Test func allErrorsAreCollectedAcrossPlugins() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let errors = try dir.errors("""
            plugins:
              - {id: a, exec: /bin/true, IntentsSupported: [A], timeout: x}
              - {id: b, exec: /bin/true, IntentsSupported: [B], priority: x}
              - {id: c, exec: /bin/true, IntentsSupported: [C], max_in_flight: x}
            """)
        #expect(errors.count == 3)
        #expect(errors.map { $0.split(separator: ":")[1] } == ["2", "3", "4"])
    }

    @Test func diagnosticDescriptionIsCompilerStyle() {
        let diagnostic = ConfigDiagnostic(SourceMark(file: "plugins.yaml", line: 3, column: 7), "boom")
        #expect(diagnostic.description == "plugins.yaml:3:7: error: boom")
        let warning = ConfigDiagnostic(SourceMark(file: "p.yaml", line: 1, column: 1), "hm", severity: .warning)
        #expect(warning.description == "p.yaml:1:1: warning: hm")
    }

    // MARK: - Drop-ins

    @Test func dropInsAreLoadedInFileNameOrder() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.write("plugins.d/20-list.yaml", """
            plugins:
              - {id: second, exec: bin/second, IntentsSupported: [EchoIntent]}
              - {id: third, exec: bin/third, IntentsSupported: [StatusIntent]}
            """)
        try dir.write("plugins.d/10-single.yaml", """
            id: first
            exec: bin/first
            IntentsSupported: [EchoIntent]
            definitions: [defs/first.yaml]
            """)
        try dir.write("plugins.d/notes.txt", "not a manifest")
        try dir.write("plugins.d/.hidden.yaml", "garbage: [")
        try dir.write("plugins.d/old.yml", "id: old")
        let manifest = try dir.load("plugins:\n  - {id: main, exec: bin/main, IntentsSupported: [EchoIntent]}\n")
        #expect(manifest.plugins.map(\.id) == ["main", "first", "second", "third"])
        #expect(manifest.files == [
            "\(dir.path)/plugins.yaml", "\(dir.path)/plugins.d/10-single.yaml", "\(dir.path)/plugins.d/20-list.yaml",
        ])
        // Relative paths in drop-ins resolve against the main manifest's directory.
        #expect(manifest.plugins[1].exec.path == "\(dir.path)/bin/first")
        #expect(manifest.plugins[1].definitions == ["\(dir.path)/defs/first.yaml"])
        #expect(manifest.plugins[1].mark == SourceMark(file: "\(dir.path)/plugins.d/10-single.yaml", line: 1, column: 1))
        #expect(manifest.plugins[3].mark == SourceMark(file: "\(dir.path)/plugins.d/20-list.yaml", line: 3, column: 5))
        // An intent claimed by several plugins is the host's business: no diagnostic.
        #expect(!manifest.warnings.contains { $0.message.contains("EchoIntent") })
        #expect(manifest.warnings.contains {
            $0.description == "\(dir.path)/plugins.d/old.yml:1:1: warning: ignored: drop-in files must end in .yaml"
        })
    }

    @Test func dropInErrorsAreCollectedWithTheMainFiles() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.write("plugins.d/a.yaml", """
            id: echo
            exec: /bin/true
            IntentsSupported: [EchoIntent]
            """)
        try dir.write("plugins.d/b.yaml", """
            host: {state_dir: x}
            plugins:
              - id: extra
                exec: /bin/true
                IntentsSupported: [X]
                colour: red
            """)
        try dir.write("plugins.d/c.yaml", "id: [\n")
        try dir.expectErrors("""
            plugins:
              - id: echo
                exec: /bin/true
                IntentsSupported: [EchoIntent]
            """, [
            "$DIR/plugins.d/a.yaml:1:5: error: id: duplicate plugin id 'echo' (first declared at $DIR/plugins.yaml:2:9)",
            "$DIR/plugins.d/b.yaml:1:1: error: host settings belong in the main manifest, not in a drop-in",
            "$DIR/plugins.d/b.yaml:6:5: error: plugins[0]: unknown key 'colour' (allowed: id, name, remote, public_key, mdp_worker, exec, IntentsSupported, IntentsRestrictedWhileLocked, env, inherit_env, timeout, priority, definitions, max_in_flight, enabled, activation, idle_timeout, heartbeat, crash_limit, crash_window, breaker_cooldown, synonyms, instances, idempotent, memory_limit, cpu_limit, sha256)",
            "$DIR/plugins.d/c.yaml:2:1: error: YAML syntax error: did not find expected node content (while parsing a flow node at line 2, column 1)",
        ])
    }

    @Test func loadFromTextUsesThePathForResolution() throws {
        let manifest = try ManifestLoader.load(text: """
            host: {state_dir: state}
            plugins:
              - {id: e, exec: "../bin/e", IntentsSupported: [E], definitions: [d.yaml]}
            """, path: "/virtual/config/plugins.yaml")
        #expect(manifest.path == "/virtual/config/plugins.yaml")
        #expect(manifest.host.stateDirectory == "/virtual/config/state")
        #expect(manifest.plugins[0].exec.path == "/virtual/bin/e")
        #expect(manifest.plugins[0].definitions == ["/virtual/config/d.yaml"])
        #expect(manifest.plugins[0].mark.file == "/virtual/config/plugins.yaml")
    }

    @Test func symlinksInPathsAreKept() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.write("build/x86/plugin", "#!/bin/sh\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(dir.path)/build/x86/plugin")
        try FileManager.default.createSymbolicLink(atPath: "\(dir.path)/build/debug", withDestinationPath: "x86")
        let manifest = try dir.load("plugins: [{id: p, exec: ./build/./debug//plugin, IntentsSupported: [P]}]\n")
        #expect(manifest.plugins[0].exec.path == "\(dir.path)/build/debug/plugin")
        #expect(manifest.warnings.isEmpty)
    }

    @Test func theDemoManifestLoads() throws {
        // Tests run from the package root; the demo must stay valid.
        let path = FileManager.default.currentDirectoryPath + "/plugins.yaml"
        try #require(FileManager.default.fileExists(atPath: path))
        let manifest = try ManifestLoader.load(path: path)
        // Other features append their demo plugins; the first four stay.
        #expect(Array(manifest.plugins.map(\.id).prefix(4)) == ["balance", "messenger", "chat", "echo"])
        #expect(manifest.plugins[0].intentsRestrictedWhileLocked == ["SwitchContractIntent"])
        // The README tour switches contracts with the demo credential (demo/client-credential).
        #expect(manifest.host.clientCredential == "fonic-demo")
        #expect(manifest.plugins[0].exec.path == FileManager.default.currentDirectoryPath + "/.build/debug/plugin-balance")
        // Unbuilt plugins, and the demo credential as git checks it out (0644: a warning,
        // not a refusal, so that the tour works from a fresh clone).
        #expect(manifest.warnings.allSatisfy {
            $0.message.contains("does not exist (yet)") || $0.message.contains("client_credential_file") && $0.message.contains("can be read by other users")
        })
    }
}
