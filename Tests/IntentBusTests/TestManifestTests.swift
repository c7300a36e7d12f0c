import Foundation
import Testing
import PluginHost
import IntentBusTestSupport

/// The test-support module's manifest builder writes what the loader reads back: the
/// suites rely on it for every host they start.
@Suite("Test manifest builder")
struct TestManifestTests {
    @Test("a built manifest loads with every key as given, including values YAML would misread unquoted")
    func roundTrip() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let json = #"[{"intent":"PickItemIntent","phrases":["Pick ${item}"]}]"#
        let manifest = try dir.load(TestManifest(
            .test("alpha", intents: ["A", "B"], env: ["FLAG": "off", "COUNT": "1", "JSON": json]).priority(5).instances(2),
            TestManifest.Plugin(id: "beta", name: "Beta: the second #1", synonyms: ["yes", "B, too"], exec: "/bin/true",
                                intents: ["B"], timeout: "300ms").enabled(false).extra("idempotent: true"),
            host: .init(conversationTimeout: "2s", clientCredential: "s3cret", defaults: ["B": "beta"],
                        extra: ["limits:\n  max_open_per_client: 3"])))
        #expect(manifest.host.conversationTimeout == .seconds(2))
        #expect(manifest.host.clientCredential == "s3cret")
        #expect(manifest.host.presetDefaults == ["B": "beta"])
        #expect(manifest.host.limits.maxOpenPerClient == 3)
        let alpha = manifest.plugins[0], beta = manifest.plugins[1]
        #expect(alpha.id == "alpha" && alpha.name == "Test alpha" && alpha.priority == 5 && alpha.instances == 2)
        #expect(alpha.intentsSupported == ["A", "B"])
        #expect(alpha.exec.path == Products.path("plugin-testplugin"))
        #expect(alpha.environment == ["TEST_INTENTS": "A,B", "FLAG": "off", "COUNT": "1", "JSON": json])
        #expect(alpha.timeout == .seconds(10))
        #expect(beta.name == "Beta: the second #1" && beta.synonyms == ["yes", "B, too"])
        #expect(beta.enabled == false && beta.timeout == .milliseconds(300))
    }

    @Test("scalars stay plain where that is safe and are quoted where YAML would read something else")
    func scalars() {
        #expect(YAMLScalar.render("alpha") == "alpha")
        #expect(YAMLScalar.render("/tmp/ib-1/plugin-echo --raw") == "/tmp/ib-1/plugin-echo --raw")
        #expect(YAMLScalar.render("true") == "\"true\"")
        #expect(YAMLScalar.render("12") == "\"12\"")
        #expect(YAMLScalar.render("a: b") == "\"a: b\"")
        #expect(YAMLScalar.render("") == "\"\"")
        #expect(YAMLScalar.quoted("say \"hi\"\\\n") == #""say \"hi\"\\\n""#)
    }

    @Test("an entry written as a drop-in file loads beside the manifest's own plugins")
    func dropIn() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.write("plugins.d/20-beta.yaml", TestManifest.Plugin.test("beta", intents: ["B"], env: ["COLOUR": "blue"]).dropIn)
        let manifest = try dir.load(TestManifest(.test("alpha")))
        #expect(manifest.plugins.map(\.id) == ["alpha", "beta"])
        #expect(manifest.plugins[1].environment == ["TEST_INTENTS": "B", "COLOUR": "blue"])
    }

    @Test("a manifest without plugins renders an empty list; changing one plugin leaves the others")
    func emptyAndChanging() throws {
        #expect(TestManifest([]).yaml == "host:\n  state_dir: state\nplugins: []\n")
        let two = TestManifest(.test("a"), .test("b"))
        let changed = two.changing("b") { $0.priority = 3 }
        #expect(changed.plugins.map(\.priority) == [nil, 3])
        #expect(two.plugins.map(\.priority) == [nil, nil])
    }
}
