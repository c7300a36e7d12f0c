import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

@Suite("Lists, prompt vocabulary and date ranges (unit)")
struct ListResolutionUnitTests {
    @Test("one result per item is an array on the wire")
    func itemsJSON() {
        let r = ResolutionResult.items([.needsValue, .success("x")])
        #expect(r.json.canonicalString == #"[{"result":"needsValue"},{"result":"success","value":"x"}]"#)
    }

    static let definitionText = """
    locale: de_DE
    intents:
      - name: ListIntent
        parameters:
          - {name: tags, type: String, multiple: true}
          - {name: count, type: Integer, minimum: 1, maximum: 10}
          - {name: share, type: Decimal, minimum: 0.5, maximum: 2}
    """

    @Test("a list takes at most 1000 items; a single value is a list of one")
    func listBounds() throws {
        let decoded = DefinitionLoader.decode(text: Self.definitionText, file: "l.yaml")
        let definition = try #require(decoded.definitions.first)
        let tags = try #require(definition.parameter("tags"))
        #expect(try ParameterCoercion.coerce("a", tags, in: definition).get() == ["a"])
        let many = JSON.array(Array(repeating: "x", count: 1001))
        guard case .failure(let problem) = ParameterCoercion.coerce(many, tags, in: definition) else {
            Issue.record("1001 items were taken"); return
        }
        #expect(problem.message == "takes at most 1000 items, got 1001")
    }

    @Test("legacy prompt fields: Integer bounds stay integers, Decimal bounds decimals, the type title is German")
    func legacyFields() throws {
        let definition = try #require(DefinitionLoader.decode(text: Self.definitionText, file: "l.yaml").definitions.first)
        let count = PromptVocabulary.fields(try #require(definition.parameter("count")), in: definition)
        #expect(count["minimum"] == .int(1) && count["maximum"] == .int(10))
        #expect(count["type_title"] == "Ganzzahl" && count["range"] == "1…10")
        let share = PromptVocabulary.fields(try #require(definition.parameter("share")), in: definition)
        #expect(share["minimum"] == .double(0.5) && share["maximum"] == .double(2))
        #expect(share["range"] == "0,5…2")
        #expect(PromptVocabulary.fields(try #require(definition.parameter("tags")), in: definition)["multiple"] == true)
    }

    @Test("a range on a legacy Date is refused, saying why")
    func dateRange() {
        let decoded = DefinitionLoader.decode(text: """
        intents:
          - name: D
            parameters:
              - {name: when, type: Date, minimum: 1}
        """, file: "d.yaml")
        #expect(decoded.errors.map(\.description).contains { $0.contains("Date parameters have no minimum") && $0.contains("time zone") })
    }
}
