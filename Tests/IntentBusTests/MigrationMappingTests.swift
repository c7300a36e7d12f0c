import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport

/// Migration maps a legacy request's parameters by name and by the type the legacy
/// definition declares (when the host has one), not only by what the value looks like.
@Suite("Migration mapping by declared type")
struct MigrationMappingTests {
    static let definitionText = """
    enums:
      - name: Mood
        cases: [{name: calm, displayName: Ruhig}, wild]
    types:
      - name: Person
        displayName: Person
    intents:
      - name: OldIntent
        parameters:
          - {name: name, type: String}
          - {name: times, type: String}
          - {name: count, type: Integer, maximum: 10}
          - {name: mood, type: Mood}
          - {name: who, type: Person}
          - {name: when, type: Date}
          - {name: tags, type: String, multiple: true}
          - {name: due, type: Date}
          - {name: labels, type: String, multiple: true}
          - {name: people, type: Person, multiple: true}
    """

    static func decl(_ name: String, _ type: String, entity: String? = nil, enumName: String? = nil) -> NewStyleParameter {
        NewStyleParameter(name: name, title: name.capitalized, type: .init(rawValue: type)!, entity: entity, enumName: enumName,
                          optional: true)
    }

    static func list(_ name: String, _ type: String, entity: String? = nil) -> NewStyleParameter {
        var p = decl(name, type, entity: entity)
        p.multiple = true
        return p
    }

    let definition: IntentDefinition
    let intent: NewStyleIntent
    var catalog = NewStyleCatalog()

    init() throws {
        let decoded = DefinitionLoader.decode(text: Self.definitionText, file: "old.yaml")
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        definition = try #require(decoded.definitions.first)
        intent = NewStyleIntent(identifier: "NewIntent", title: "New", authentication: .alwaysAllowed, migratedFrom: "OldIntent",
                            parameters: [Self.decl("name", "string"), Self.decl("times", "integer"), Self.decl("count", "integer"),
                                         Self.decl("mood", "enum", enumName: "Mood"), Self.decl("who", "entity", entity: "PersonEntity"),
                                         Self.decl("when", "string"), Self.decl("tags", "string"), Self.decl("due", "date"),
                                         Self.list("labels", "string"), Self.list("people", "entity", entity: "PersonEntity")])
        catalog.enums["Mood"] = NewStyleEnum(name: "Mood", cases: [.init(value: "calm", title: "Calm"), .init(value: "wild", title: "Wild")])
    }

    func map(_ name: String, _ value: JSON, withDefinition: Bool = true) -> Result<JSON, ParameterProblem> {
        let p = intent.parameters.first { $0.name == name }!
        return MigrationMapping.map(value, legacy: withDefinition ? definition.parameter(name) : nil,
                                    of: withDefinition ? definition : nil, to: p, of: intent, catalog: catalog)
    }

    func reason(_ result: Result<JSON, ParameterProblem>) -> String? {
        if case .failure(let problem) = result { return problem.message }
        return nil
    }

    @Test("same declared type: mapped, normalised as the legacy flow would")
    func sameType() throws {
        #expect(try map("name", "Ada").get() == "Ada")
        #expect(try map("count", "3").get() == 3)
        // A display name of the legacy enum becomes its case name, which the new enum has.
        #expect(try map("mood", "ruhig").get() == "calm")
        #expect(reason(map("mood", "ruhig", withDefinition: false))?.contains("expected one of calm, wild") == true)
        // A legacy custom object becomes an entity reference.
        #expect(try map("who", ["identifier": "p-1", "displayString": "Pat"]).get() == ["id": "p-1"])
        #expect(try map("who", ["displayString": "Pat"]).get() == ["text": "Pat"])
    }

    @Test("a different declared type is not mapped, whatever the value looks like")
    func differentType() throws {
        // Without the definition "2" would pass as an integer.
        #expect(try map("times", "2", withDefinition: false).get() == 2)
        #expect(reason(map("times", "2")) == "OldIntent declares times as String, but NewIntent.times is an integer")
        #expect(reason(map("times", 2)) == "OldIntent declares times as String, but NewIntent.times is an integer")
        #expect(reason(map("when", "2024-05-01")) == "OldIntent declares when as Date, but NewIntent.when is a string")
        #expect(reason(map("tags", ["a"])) == "OldIntent declares tags as String (multiple), but NewIntent.tags takes one value")
    }

    @Test("a legacy Date maps to a new-style date; a list to a list, item by item")
    func datesAndLists() throws {
        #expect(try map("due", "2026-12-01").get() == "2026-12-01")
        #expect(try map("due", "2026-12-01T09:30:00+01:00").get() == "2026-12-01T08:30:00Z")
        // A local time without an offset is a legacy Date, but not a new-style one.
        #expect(reason(map("due", "2026-12-01T09:30"))?.contains("NewIntent.due (date)") == true)
        #expect(try map("labels", ["a", "b"]).get() == ["a", "b"])
        #expect(try map("labels", "a").get() == ["a"])
        #expect(try map("people", [["identifier": "p-1"], "Pat"]).get() == [["id": "p-1"], "Pat"])
    }

    @Test("a value that doesn't fit the legacy declaration is reported with the legacy type")
    func invalidForLegacy() {
        #expect(reason(map("count", 11))?.hasPrefix("not a valid Integer for OldIntent:") == true)
        #expect(reason(map("count", "many"))?.hasPrefix("not a valid Integer for OldIntent:") == true)
    }

    @Test("end to end: with a definition for LegacyGreetIntent, times declared String does not map onto GreetAppIntent.times (integer)")
    func endToEnd() throws {
        let dir = TempDir()
        let definitions = dir.write("greet.yaml", """
        intents:
          - name: LegacyGreetIntent
            parameters:
              - {name: name, type: String}
              - {name: times, type: String}
              - {name: shout, type: Boolean}
        """)
        let host = try TestHost(TestManifest(.newStyle("ns").definitions([definitions])), dir: dir, waitReady: ["ns"])
        defer { host.stop() }
        let reply = try host.client().send("LegacyGreetIntent", parameters: ["name": "Ada", "times": 2, "shout": "yes"]) { _ in nil }
        #expect(reply.header["handled_by"] == "GreetAppIntent")
        #expect(reply.body["dialog"] == "Hello Ada!", "times fell back to its default")
        let unmapped = reply.header["unmapped_parameters"]?.arrayValue ?? []
        #expect(unmapped.compactMap { $0["name"]?.stringValue } == ["shout", "times"])
        #expect(unmapped.last?["value"] == 2)
        #expect(unmapped.last?["reason"] == "LegacyGreetIntent declares times as String, but GreetAppIntent.times is an integer")
        #expect(host.logEventually(contains: "LegacyGreetIntent → GreetAppIntent: parameters not mapped: shout, times"))
    }
}
