import Foundation
import Testing
import IntentBusCore
@testable import IntentBusManifest
import IntentBusTestSupport

/// `host.defaults` in the manifest: checked against the plugins with file:line:column.
@Suite("Preset defaults in the manifest")
struct PresetDefaultManifestTests {
    private func load(_ text: String) throws -> (Manifest?, [String], String) {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", text)
        do {
            let manifest = try ManifestLoader.load(path: path)
            return (manifest, manifest.warnings.map { $0.description.replacingOccurrences(of: dir.path, with: "$DIR") }, dir.path)
        } catch {
            return (nil, error.diagnostics.map { $0.description.replacingOccurrences(of: dir.path, with: "$DIR") }, dir.path)
        }
    }

    @Test func aValidPresetIsLoaded() throws {
        let (manifest, warnings, _) = try load("""
        host:
          defaults:
            SendIntent: b
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
          - {id: b, exec: /bin/true, IntentsSupported: [SendIntent, OtherIntent]}
        """)
        #expect(manifest?.host.presetDefaults == ["SendIntent": "b"])
        #expect(warnings.isEmpty)
    }

    @Test func unknownPluginsAndUnclaimedIntentsAreErrors() throws {
        let (manifest, diagnostics, _) = try load("""
        host:
          defaults:
            SendIntent: nosuch
            OtherIntent: a
            ib.ping: a
            Empty: ""
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
          - {id: b, exec: /bin/true, IntentsSupported: [SendIntent, OtherIntent]}
        """)
        #expect(manifest == nil)
        #expect(diagnostics == [
            "$DIR/plugins.yaml:3:17: error: host.defaults.SendIntent: there is no plugin 'nosuch' in the manifest or its drop-ins (plugins: a, b)",
            "$DIR/plugins.yaml:4:18: error: host.defaults.OtherIntent: plugin 'a' does not list OtherIntent in IntentsSupported (claimed by b)",
            "$DIR/plugins.yaml:5:5: error: host.defaults.ib.ping: intent name 'ib.ping' is reserved: names starting with 'ib.' are answered by the host",
            "$DIR/plugins.yaml:6:12: error: host.defaults.Empty: needs a plugin id",
        ])
    }

    @Test func aPresetForAnUncontestedIntentIsAWarning() throws {
        let (manifest, warnings, _) = try load("""
        host:
          defaults: {SendIntent: a}
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
        """)
        #expect(manifest?.host.presetDefaults == ["SendIntent": "a"])
        #expect(warnings == ["$DIR/plugins.yaml:2:14: warning: host.defaults.SendIntent: only 'a' claims SendIntent, so this default changes nothing until another plugin claims it"])
    }

    @Test func presetsMayNamePluginsFromDropIns() throws {
        let dir = TempDir()
        defer { dir.remove() }
        _ = dir.write("plugins.d/b.yaml", "{id: b, exec: /bin/true, IntentsSupported: [SendIntent]}")
        let path = dir.write("plugins.yaml", """
        host:
          defaults: {SendIntent: b}
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
        """)
        #expect(try ManifestLoader.load(path: path).host.presetDefaults == ["SendIntent": "b"])
    }
}
