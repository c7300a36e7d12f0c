import Foundation
import Testing
import IntentBus
import IntentDefinitionFormat
@testable import PluginHost
@testable import IntentBusDefinitions
import IntentBusTestSupport

/// Xcode's `.intentdefinition` form: the real files of ../shared/apple load, localize
/// and convert both ways with nothing lost; hostile files get errors with the key path.
@Suite("Xcode intent definitions")
struct XcodeDefinitionTests {
    /// ../shared/apple beside the clone (CI keeps /work/shared there).
    static let appleDirectory = URL(fileURLWithPath: Products.root).deletingLastPathComponent().appendingPathComponent("shared/apple").path
    static let realFiles = ["a-shell/Base.lproj/Intents.intentdefinition", "a-shell/en.lproj/Intents.intentdefinition",
                            "home-assistant-ios/Base.lproj/Intents.intentdefinition"]

    private func realFile(_ name: String) throws -> (path: String, data: Data) {
        let path = "\(Self.appleDirectory)/\(name)"
        let data = try #require(FileManager.default.contents(atPath: path),
            "the real Xcode files are missing: expected \(path) (../shared/apple beside the repository)")
        return (path, data)
    }

    @Test("every real .intentdefinition loads with no error, with its translations", arguments: realFiles)
    func realFilesLoad(name: String) throws {
        let (path, data) = try realFile(name)
        let result = DefinitionLoader.decodeXcode(data, path: path, file: name)
        #expect(result.file.errors.isEmpty, "\(result.file.errors)")
        #expect(result.file.definitions.count == (name.hasPrefix("a-shell") ? 3 : 10))
        #expect(result.localized.keys.contains("de"))
        #expect(result.localized["de"]?.count == result.file.definitions.count)
    }

    @Test("home-assistant's CallService asks for the service data in German from de.lproj; the catalog picks by client locale")
    func germanDialog() throws {
        let (path, data) = try realFile("home-assistant-ios/Base.lproj/Intents.intentdefinition")
        let result = DefinitionLoader.decodeXcode(data, path: path, file: "Intents.intentdefinition")
        let english = try #require(result.file.definitions.first { $0.name == "CallService" })
        let german = try #require(result.localized["de"]?.first { $0.name == "CallService" })
        #expect(english.parameter("payload")?.prompts.primary == "What service data do you want to send?")
        #expect(german.parameter("payload")?.prompts.primary == "Welche Dienst-Daten möchtest du senden?")
        #expect(german.locale.identifier == "de")
        #expect(english.parameter("server")?.type == .object("IntentServer"))
        #expect(english.parameter("server")?.dynamicOptions == true)
        let catalog = DefinitionCatalog(byPlugin: ["ha": ["CallService": english]])
        var localized = catalog
        localized.localized = ["ha": ["CallService": ["de": german]]]
        #expect(german.parameter("server")?.prompts.confirmation == "Nur zur Bestätigung, du wolltest '${server}'?")
        #expect(localized.definition(of: "CallService", plugin: "ha", locale: "de_DE")?.parameter("payload")?.prompts.primary
                == "Welche Dienst-Daten möchtest du senden?")
        #expect(localized.definition(of: "CallService", plugin: "ha", locale: "ja_JP")?.parameter("payload")?.prompts.primary
                == "What service data do you want to send?")
    }

    @Test("convert: .intentdefinition → YAML → .intentdefinition keeps every meaningful key", arguments: realFiles)
    func roundTrip(name: String) throws {
        let (path, data) = try realFile(name)
        let original = try #require(XcodeDefinitionFile.read(data, path: path, shown: name, localize: false).shape)
        let yaml = DefinitionConverter.yaml(original)
        // The YAML passes the host's own checks as a YAML definition.
        #expect(DefinitionLoader.decode(text: yaml, file: "converted.yaml").errors.isEmpty)
        let node = try YAMLParser.parseDocument(yaml, file: "converted.yaml")
        let plist = DefinitionConverter.intentDefinition(XcodeDefinitionBridge.shape(node))
        let back = try #require(XcodeDefinitionFile.read(plist, path: "/nonexistent/x.intentdefinition", shown: "x", localize: false).shape)
        #expect(back.json == original.json)
        #expect(DefinitionConverter.yaml(back) == yaml)
    }

    @Test("convert: the FONIC YAML → .intentdefinition → YAML is the same definition")
    func yamlRoundTrip() throws {
        let text = try String(contentsOfFile: "\(Products.root)/definitions/balance.yaml", encoding: .utf8)
        let yamlShape = XcodeDefinitionBridge.shape(try YAMLParser.parseDocument(text, file: "balance.yaml"))
        let plist = DefinitionConverter.intentDefinition(yamlShape)
        let read = DefinitionLoader.decodeXcode(plist, path: "/nonexistent/Base.lproj/balance.intentdefinition", file: "balance.intentdefinition")
        #expect(read.file.errors.isEmpty, "\(read.file.errors)")
        let fromYAML = DefinitionLoader.decode(text: text, file: "balance.yaml").definitions
        #expect(read.file.definitions.map(\.name) == fromYAML.map(\.name))
        for (a, b) in zip(read.file.definitions, fromYAML) {
            #expect(a.codes.map { "\($0.name)=\($0.value) \($0.formatString ?? "")" } == b.codes.map { "\($0.name)=\($0.value) \($0.formatString ?? "")" })
            #expect(a.parameters.map { "\($0.name):\($0.type) \($0.required) \($0.minimum ?? 0)…\($0.maximum ?? 0)" }
                    == b.parameters.map { "\($0.name):\($0.type) \($0.required) \($0.minimum ?? 0)…\($0.maximum ?? 0)" })
        }
        var withoutLocale = yamlShape
        withoutLocale.value = .map(yamlShape.entries.filter { $0.key != "locale" })
        let back = try #require(XcodeDefinitionFile.read(plist, path: "/nonexistent/x.intentdefinition", shown: "x", localize: false).shape)
        #expect(back.json == withoutLocale.json)
    }

    @Test("intentbus definitions convert: FONIC's .intentdefinition to YAML and back, and a corrupt file exits 6")
    func convertCommand() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let intentbus = Products.path("intentbus")
        let source = Products.file("definitions/FONIC/de.lproj/Intents.intentdefinition")
        let toYAML = runCommand(intentbus, ["definitions", "convert", source])
        #expect(toYAML.status == 0, "\(toYAML.stderr)")
        #expect(toYAML.stdout.contains("formatString: Sie haben ${balance} Guthaben."))
        #expect(toYAML.stdout.contains("formatStringID: "))
        try toYAML.stdout.write(toFile: "\(dir)/fonic.yaml", atomically: true, encoding: .utf8)
        let back = runCommand(intentbus, ["definitions", "convert", "\(dir)/fonic.yaml", "--output", "\(dir)/back.intentdefinition"])
        #expect(back.status == 0, "\(back.stderr)")
        let again = runCommand(intentbus, ["definitions", "convert", "\(dir)/back.intentdefinition"])
        #expect(again.stdout.split(separator: "\n").dropFirst() == toYAML.stdout.split(separator: "\n").dropFirst())
        try Data("<plist><dict><key>INIntents</key>".utf8).write(to: URL(fileURLWithPath: "\(dir)/bad.intentdefinition"))
        let bad = runCommand(intentbus, ["definitions", "convert", "\(dir)/bad.intentdefinition"])
        #expect(bad.status == 6)
        #expect(bad.stderr.contains("bad.intentdefinition: error: not a property list"))
    }

    @Test("the locale header is a string of at most 35 bytes (a BCP 47 tag), for both Apple layers")
    func localeHeader() {
        #expect(RequestHeaderCheck.problem(["locale": "de_DE"]) == nil)
        #expect(RequestHeaderCheck.problem(["locale": .string(String(repeating: "x", count: 35))]) == nil)
        #expect(RequestHeaderCheck.problem(["locale": 42]) == "header field \"locale\" must be a string, got 42")
        #expect(RequestHeaderCheck.problem(["locale": .string(String(repeating: "x", count: 36))])?.contains("at most 35 bytes") == true)
    }
}
