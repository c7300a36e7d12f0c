import Foundation
import Testing
import IntentBusCore
import IntentDefinitionFormat
@testable import IntentBusDefinitions
@testable import IntentBusManifest
import IntentBusTestSupport

/// `.intentdefinition` files written for the test: every parameter type Xcode offers,
/// and the hostile ones (corrupt plist, unknown type, meaningless key, missing strings).
@Suite("Xcode intent definition problems")
struct XcodeDefinitionProblemTests {
    /// An `.intentdefinition` with one intent whose parameters are `parameters` (Xcode's keys).
    static func plist(_ parameters: [[String: JSON]], extra: [String: JSON] = [:], enums: [JSON] = [], types: [JSON] = []) -> Data {
        var intent: [String: JSON] = [
            "INIntentName": "Probe", "INIntentTitle": "Probe", "INIntentTitleID": "t1", "INIntentCategory": "generic",
            "INIntentParameters": .array(parameters.map { .object($0) }),
            "INIntentResponse": ["INIntentResponseCodes": [["INIntentResponseCodeName": "success", "INIntentResponseCodeSuccess": true,
                                                             "INIntentResponseCodeFormatString": "Fertig.", "INIntentResponseCodeFormatStringID": "c1"]]],
        ]
        intent.merge(extra) { _, new in new }
        return PropertyListJSON.xml(.object(["INIntents": [.object(intent)], "INEnums": .array(enums), "INTypes": .array(types)]))
    }

    static func parameter(_ name: String, _ type: String, _ more: [String: JSON] = [:]) -> [String: JSON] {
        ["INIntentParameterName": .string(name), "INIntentParameterType": .string(type), "INIntentParameterTag": 1].merging(more) { _, new in new }
    }

    private func decode(_ data: Data, path: String = "/nonexistent/Base.lproj/Intents.intentdefinition") -> DefinitionLoader.XcodeResult {
        DefinitionLoader.decodeXcode(data, path: path, file: "Intents.intentdefinition")
    }

    @Test("each parameter type Xcode offers becomes the host's type")
    func everyType() throws {
        let data = Self.plist([
            Self.parameter("text", "String"), Self.parameter("count", "Integer", ["INIntentParameterMetadata": ["INIntentParameterMetadataMinimumValue": 1, "INIntentParameterMetadataMaximumValue": 9]]),
            Self.parameter("ratio", "Decimal"), Self.parameter("flag", "Boolean", ["INIntentParameterMetadata": ["INIntentParameterMetadataDefaultValue": true]]),
            Self.parameter("when", "DateComponents"), Self.parameter("length", "Duration"), Self.parameter("price", "CurrencyAmount"),
            Self.parameter("who", "Person"), Self.parameter("where", "Placemark"), Self.parameter("doc", "File"), Self.parameter("link", "URL"),
            Self.parameter("color", "Integer", ["INIntentParameterEnumType": "Color"]),
            Self.parameter("things", "Object", ["INIntentParameterObjectType": "Thing", "INIntentParameterSupportsMultipleValues": true,
                                                "INIntentParameterSupportsDynamicEnumeration": true]),
        ], enums: [["INEnumName": "Color", "INEnumValues": [["INEnumValueName": "unknown"], ["INEnumValueName": "red", "INEnumValueIndex": 1]]]],
           types: [["INTypeName": "Thing", "INTypeProperties": [["INTypePropertyName": "identifier", "INTypePropertyType": "String", "INTypePropertyDefault": true]]]])
        let result = decode(data)
        #expect(result.file.errors.isEmpty, "\(result.file.errors)")
        let probe = try #require(result.file.definitions.first)
        let types = Dictionary(uniqueKeysWithValues: probe.parameters.map { ($0.name, $0.type) })
        #expect(types == ["text": .string, "count": .integer, "ratio": .decimal, "flag": .boolean, "when": .date, "length": .duration,
                          "price": .currencyAmount, "who": .person, "where": .placemark, "doc": .file, "link": .url,
                          "color": .enumeration("Color"), "things": .object("Thing")])
        #expect(probe.parameter("count")?.maximum == 9)
        #expect(probe.parameter("flag")?.defaultValue == .bool(true))
        #expect(probe.parameter("things")?.multiple == true)
        #expect(probe.parameter("things")?.dynamicOptions == true)
        // The new types' values are checked like the others.
        func coerce(_ name: String, _ value: JSON) -> Bool {
            if case .success = ParameterCoercion.coerce(value, probe.parameter(name)!, in: probe) { return true }
            return false
        }
        #expect(coerce("link", "https://example.com/a"))
        #expect(!coerce("link", "not a url"))
        #expect(coerce("where", ["latitude": 52.5, "longitude": 13.4]))
        #expect(!coerce("where", ["latitude": 95.0, "longitude": 13.4]))
        #expect(coerce("who", ["displayName": "Ada", "handle": "ada@example.com"]))
        #expect(!coerce("doc", ["filename": "a.txt"]))
    }

    @Test("a corrupt property list is one error naming the file")
    func corruptPlist() throws {
        var data = Self.plist([Self.parameter("text", "String")])
        data = data.prefix(data.count / 2)
        let result = decode(data)
        #expect(result.file.definitions.isEmpty)
        let error = try #require(result.file.errors.first)
        #expect(error.description.hasPrefix("Intents.intentdefinition: error: not a property list"), "\(error)")
        #expect(decode(Data("<plist><array/></plist>".utf8)).file.errors.first?.message.contains("dictionary") == true)
    }

    @Test("an unknown type is an error at its key path; a meaningless key is a warning")
    func unknownTypeAndKey() {
        let result = decode(Self.plist([Self.parameter("a", "String"), Self.parameter("b", "Foo", ["INIntentParameterSparkle": true])],
                                       extra: ["INIntentConfigurable": "yes"]))
        let errors = result.file.errors.map(\.description)
        #expect(errors.contains("Intents.intentdefinition: INIntents[0].INIntentParameters[1].INIntentParameterType: error: unknown type 'Foo' (supported: Boolean, CurrencyAmount, DateComponents, Decimal, Duration, File, Integer, Person, Placemark, String, URL, Object)"), "\(errors)")
        #expect(errors.contains("Intents.intentdefinition: INIntents[0].INIntentConfigurable: error: expected a boolean, got a string"), "\(errors)")
        #expect(result.file.warnings.contains { $0.mark.keyPath == "INIntents[0].INIntentParameters[1].INIntentParameterSparkle" })
    }

    @Test("the host's checks name the key path too (a placeholder no response parameter has)")
    func assemblerCheckOnPlist() {
        let data = PropertyListJSON.xml(["INIntents": [["INIntentName": "Probe", "INIntentResponse": ["INIntentResponseCodes": [
            ["INIntentResponseCodeName": "done", "INIntentResponseCodeFormatString": "Es sind ${grad} Grad."]]]]]])
        let errors = decode(data).file.errors
        #expect(errors.count == 1)
        #expect(errors.first?.mark.keyPath == "INIntents[0].INIntentResponse.INIntentResponseCodes[0].INIntentResponseCodeFormatString")
        #expect(errors.first?.message.contains("grad") == true)
    }

    @Test("a missing Intents.strings key is a warning; the others are translated")
    func missingStringsKey() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-strings-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["Base.lproj", "de.lproj"] { try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true) }
        let path = "\(root)/Base.lproj/Intents.intentdefinition"
        let data = Self.plist([])
        try data.write(to: URL(fileURLWithPath: path))
        try Data("\"t1\" = \"Probe auf Deutsch\";\n".utf8).write(to: URL(fileURLWithPath: "\(root)/de.lproj/Intents.strings"))
        let result = decode(data, path: path)
        #expect(result.file.errors.isEmpty, "\(result.file.errors)")
        #expect(result.localized["de"]?.first?.title == "Probe auf Deutsch")
        #expect(result.localized["de"]?.first?.code("success")?.formatString == "Fertig.")
        let warning = try #require(result.file.warnings.first { $0.message.contains("no entry") })
        #expect(warning.message.contains("\"c1\""))
        // A strings file that is not one is an error naming it.
        try Data("\"t1\" = ".utf8).write(to: URL(fileURLWithPath: "\(root)/de.lproj/Intents.strings"))
        #expect(decode(data, path: path).file.errors.contains { $0.mark.file.hasSuffix("de.lproj/Intents.strings") })
    }

    @Test("a manifest's definitions: takes an .intentdefinition; validate's loader reads it like YAML")
    func manifestTakesIntentDefinition() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-manifest-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/Base.lproj", withIntermediateDirectories: true)
        try Self.plist([Self.parameter("text", "String")]).write(to: URL(fileURLWithPath: "\(root)/Base.lproj/Intents.intentdefinition"))
        let manifest = try ManifestLoader.load(text: """
            plugins:
              - id: probe
                exec: /bin/true
                IntentsSupported: [Probe]
                definitions: [Base.lproj/Intents.intentdefinition]
            """, path: "\(root)/plugins.yaml")
        let catalog = try DefinitionLoader.load(manifest: manifest)
        #expect(catalog.definition(of: "Probe", plugin: "probe")?.parameter("text")?.type == .string)
    }

    @Test("YAML's bare enum cases become Xcode's enum values")
    func bareEnumCases() throws {
        let yaml = """
            enums:
              - {name: Size, cases: [small, large]}
            intents:
              - name: Probe
                parameters: [{name: size, type: Size}]
            """
        let shape = XcodeDefinitionBridge.shape(try YAMLParser.parseDocument(yaml, file: "probe.yaml"))
        let result = decode(DefinitionConverter.intentDefinition(shape))
        #expect(result.file.errors.isEmpty, "\(result.file.errors)")
        #expect(result.file.definitions.first?.enums["Size"]?.cases.map(\.name) == ["small", "large"])
        #expect(result.file.definitions.first?.parameter("size")?.type == .enumeration("Size"))
    }
}
