import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

// Intents declared with the Swift SDK, for the round trip: every parameter type, a
// range, defaults, an optional, a list, an entity, an enum, a migration and a schema.
private struct ModelFruit: AppEntity {
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Fruit"
    static let defaultQuery = ModelFruitQuery()
    let id: String
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id)") }
}

private struct ModelFruitQuery: EntityStringQuery {
    func entities(for identifiers: [String]) async throws -> [ModelFruit] { identifiers.map(ModelFruit.init) }
    func suggestedEntities() async throws -> [ModelFruit] { [] }
    func entities(matching string: String) async throws -> [ModelFruit] { [ModelFruit(id: string)] }
}

private enum ModelMood: String, AppEnum {
    case calm, wild
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Mood"
    static let caseDisplayRepresentations: [ModelMood: DisplayRepresentation] = [.calm: "Calm", .wild: "Wild"]
}

private struct ModelEverythingIntent: AppIntent {
    static let title: LocalizedStringResource = "Everything"
    static let description = IntentDescription("Takes one of each.", categoryName: "Tests")
    static let authenticationPolicy = IntentAuthenticationPolicy.requiresLocalDeviceAuthentication
    @Parameter(title: "Minutes", description: "Length.", default: 25, inclusiveRange: (5, 180), requestValueDialog: "How long?")
    var minutes: Int
    @Parameter(title: "Ratio", inclusiveRange: (0.5, 2.5)) var ratio: Double?
    @Parameter(title: "Loud", default: false) var loud: Bool
    @Parameter(title: "Note") var note: String?
    @Parameter(title: "Due") var due: Date
    @Parameter(title: "Link") var link: URL?
    @Parameter(title: "Fruit") var fruit: ModelFruit
    @Parameter(title: "Basket") var basket: [ModelFruit]?
    @Parameter(title: "Mood", default: .calm) var mood: ModelMood
    func perform() async throws -> some IntentResult { .result() }
}

private struct ModelMigratedIntent: CustomIntentMigratedAppIntent {
    static let title: LocalizedStringResource = "Migrated"
    static let intentClassName = "ModelLegacyIntent"
    @Parameter(title: "Name") var name: String
    func perform() async throws -> some IntentResult { .result() }
}

private struct ModelSearchIntent: AssistantSchemaIntent {
    static let title: LocalizedStringResource = "Search"
    static let schema = AssistantSchema.system.search
    @Parameter(title: "Criteria") var criteria: String
    func perform() async throws -> some IntentResult { .result() }
}

/// Host checks for the model's own problems: an integer default must be an integer, and
/// one schema is known, `demo.find`, which wants a parameter `q`.
struct FakeMetadataChecks: NewStyleHostChecks {
    struct NotAnInteger: Error, CustomStringConvertible { var description: String { "expected an integer" } }
    func checkDefault(_ value: JSON, of parameter: NewStyleParameter, enums: [String: NewStyleEnum]) -> Result<JSON, any Error> {
        let items = parameter.multiple ? value.arrayValue ?? [value] : [value]
        return parameter.type == .integer && items.contains { $0.intValue == nil }
            ? .failure(NotAnInteger()) : .success(parameter.multiple ? .array(items) : value)
    }
    var schemaNames: String { "demo.find" }
    func schemaProblems(_ name: String, of intent: NewStyleIntent) -> [String]? {
        guard name == "demo.find" else { return nil }
        return intent.parameters.contains { $0.name == "q" } ? [] : ["\(intent.identifier) has no q"]
    }
}

/// The typed metadata model (IntentBusMetadata): what the SDK encodes, the host decodes
/// to the same values, and every HELLO problem keeps its text.
@Suite("Metadata model: encoding, decoding, checks")
struct MetadataModelTests {
    /// A HELLO routing `routes` with style new, with `section` as metadata.new_style.
    static func hello(_ section: JSON, routes: [String]) -> JSON {
        ["intents": .array(routes.map { ["name": .string($0), "style": "new"] }), "metadata": ["new_style": section]]
    }

    static func sdkPlugin() throws -> IntentPlugin {
        let plugin = try IntentPlugin(environment: ["INTENTBUS_DESCRIBE": "1"])
        plugin.register(ModelEverythingIntent.self)
        plugin.register(ModelMigratedIntent.self)
        plugin.register(ModelSearchIntent.self)
        plugin.register(shortcuts: [AppShortcut(intentIdentifier: "ModelMigratedIntent", phrases: ["Migrate ${applicationName}"],
                                                shortTitle: "Migrate", systemImageName: "arrow")])
        return plugin
    }

    static let sdkRoutes = ["ModelEverythingIntent", "ModelMigratedIntent", "ModelLegacyIntent", "ModelSearchIntent", "system.search"]

    @Test("SDK → JSON → host: the host decodes exactly what the SDK declared, typed, and re-encodes the same bytes")
    func sdkRoundTrip() throws {
        let plugin = try Self.sdkPlugin()
        let declared = plugin.declarations
        let decoded = NewStyleSection.decode(hello: Self.hello(plugin.metadata, routes: Self.sdkRoutes), checks: HostMetadataChecks())
        #expect(decoded.problems.isEmpty, "\(decoded.problems)")
        #expect(decoded.section == declared)
        #expect(decoded.section.json.canonicalString == plugin.metadata.canonicalString)
        #expect(decoded.migrations == ["ModelLegacyIntent": "ModelMigratedIntent"])
        #expect(decoded.schemas == ["system.search": "ModelSearchIntent"])

        let (catalog, problems) = NewStyleCatalog.parse(hello: Self.hello(plugin.metadata, routes: Self.sdkRoutes))
        #expect(problems.isEmpty)
        let everything = try #require(catalog.intents["ModelEverythingIntent"])
        #expect(everything.parameters.map(\.type) == [.integer, .decimal, .boolean, .string, .date, .url, .entity, .entity, .enumeration])
        #expect(everything.authentication == .requiresLocalDeviceAuthentication)
        #expect(everything.category == "Tests" && everything.description == "Takes one of each.")
        let minutes = everything.parameters[0]
        #expect(minutes.min == 5 && minutes.max == 180 && minutes.defaultValue == 25 && !minutes.optional)
        #expect(minutes.rangeText == "5…180" && minutes.requestValueDialog == "How long?" && minutes.description == "Length.")
        let basket = everything.parameters[7]
        #expect(basket.multiple && basket.optional && basket.entity == "ModelFruit")
        #expect(everything.parameters[8].enumName == "ModelMood" && everything.parameters[8].defaultValue == "calm")
        #expect(catalog.entities["ModelFruit"] == NewStyleEntity(name: "ModelFruit", typeDisplayName: "Fruit", matching: true, all: false))
        #expect(catalog.enums["ModelMood"]?.cases == [.init(value: "calm", title: "Calm"), .init(value: "wild", title: "Wild")])
        #expect(catalog.lookup("ModelLegacyIntent")?.migratedFrom == "ModelLegacyIntent")
        #expect(catalog.lookup("system.search")?.0.identifier == "ModelSearchIntent")
        #expect(decoded.section.shortcuts == [NewStyleShortcut(intent: "ModelMigratedIntent", phrases: ["Migrate ${applicationName}"],
                                                               shortTitle: "Migrate", systemImageName: "arrow")])
    }

    @Test("the encoder's bytes are pinned: the wire form of each declaration")
    func encodingIsPinned() {
        let section = NewStyleSection(
            intents: [NewStyleIntent(identifier: "I", title: "T", description: "D", category: "C", migratedFrom: "L", schema: "S",
                                     parameters: [NewStyleParameter(name: "m", title: "M", type: .integer, defaultValue: 25, min: 5, max: 180,
                                                                    requestValueDialog: "How long?", description: "d"),
                                                  NewStyleParameter(name: "e", title: "E", type: .entity, entity: "X", optional: true, multiple: true),
                                                  NewStyleParameter(name: "n", title: "N", type: .enumeration, enumName: "Y", defaultValue: .null)])],
            entities: [NewStyleEntity(name: "X", typeDisplayName: "Ex", matching: true)],
            enums: [NewStyleEnum(name: "Y", typeDisplayName: "Why", cases: [.init(value: "a", title: "A")])],
            shortcuts: [NewStyleShortcut(intent: "I", phrases: ["Go ${applicationName}"], shortTitle: "Go")])
        let expected = #"{"entities":[{"name":"X","query":{"all":false,"ids":true,"matching":true,"suggested":true},"type_display_name":"Ex"}],"# +
            #""enums":[{"cases":[{"title":"A","value":"a"}],"name":"Y","type_display_name":"Why"}],"# +
            #""intents":[{"authentication":"always_allowed","category":"C","description":"D","identifier":"I","migrated_from":"L","# +
            #""parameters":[{"default":25,"description":"d","max":180,"min":5,"name":"m","optional":false,"request_value_dialog":"How long?","title":"M","type":"integer"},"# +
            #"{"entity":"X","multiple":true,"name":"e","optional":true,"title":"E","type":"entity"},"# +
            #"{"enum":"Y","name":"n","optional":false,"title":"N","type":"enum"}],"schema":"S","title":"T"}],"# +
            #""shortcuts":[{"intent":"I","phrases":["Go ${applicationName}"],"short_title":"Go"}],"version":1}"#
        #expect(section.json.canonicalString == expected)
        // No shortcuts: no key; a model value survives its own JSON.
        #expect(NewStyleSection().json.canonicalString == #"{"entities":[],"enums":[],"intents":[],"version":1}"#)
        let back = NewStyleSection.decode(hello: Self.hello(section.json, routes: ["I", "L"]), checks: FakeMetadataChecks())
        var expectedBack = section
        expectedBack.intents[0].schema = nil  // S is no schema FakeChecks knows
        expectedBack.intents[0].parameters[2].defaultValue = nil  // null is no default
        #expect(back.section == expectedBack)
        #expect(back.problems == [#"intent I: unknown assistant schema "S" (known: demo.find)"#])
    }

    @Test("the Python SDK's metadata in the conformance vectors decodes and re-encodes to the same bytes",
          arguments: Conformance.metadataVectors.filter { $0.problems.isEmpty })
    func pythonMetadataRoundTrip(_ v: MetadataVector) throws {
        let written = try #require(v.hello["metadata"]?["new_style"])
        let decoded = NewStyleSection.decode(hello: v.hello, checks: HostMetadataChecks())
        #expect(decoded.problems.isEmpty)
        #expect(decoded.section.json.canonicalString == written.canonicalString)
    }

    @Test("the value types: wire names, the list for messages, the SDK's types map onto them")
    func valueTypes() {
        #expect(NewStyleParameter.ValueType.allCases.map(\.rawValue) == ["integer", "decimal", "boolean", "string", "date", "url", "entity", "enum"])
        #expect(NewStyleParameter.ValueType.names == "integer, decimal, boolean, string, date, url, entity or enum")
        #expect(NewStyleParameter.ValueType(rawValue: "enumeration") == nil)
        #expect(Int.intentValueType.declaredType == .integer && Double.intentValueType.declaredType == .decimal)
        #expect(Date.intentValueType.declaredType == .date && URL.intentValueType.declaredType == .url)
        #expect(ModelMood.intentValueType.declaredType == .enumeration && ModelMood.intentValueType.wireName == "enum")
        #expect(ModelFruit.intentValueType.declaredType == .entity)
        #expect(IntentAuthenticationPolicy.names == "always_allowed, requires_authentication, requires_local_device_authentication")
    }
}
