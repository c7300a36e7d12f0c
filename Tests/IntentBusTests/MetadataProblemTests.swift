import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

/// Every problem the metadata model reports at HELLO, with the text protocol §9.2 and the
/// tests quote: each case breaks one thing in an otherwise valid section.
@Suite("Metadata model: each HELLO problem")
struct MetadataProblemTests {
    /// A valid section: intent I (parameter p, an integer 1…10, default 5) migrating L,
    /// entity E, enum M.
    static func section(intents: [JSON]? = nil, entities: [JSON]? = nil, enums: [JSON]? = nil) -> JSON {
        let p: JSON = ["name": "p", "title": "P", "type": "integer", "min": 1, "max": 10, "default": 5]
        return ["version": 1,
                "intents": .array(intents ?? [["identifier": "I", "title": "T", "migrated_from": "L", "parameters": [p]]]),
                "entities": .array(entities ?? [["name": "E", "type_display_name": "Ee", "query": ["ids": true]]]),
                "enums": .array(enums ?? [["name": "M", "cases": [["value": "a", "title": "A"]]]])]
    }

    static func intent(_ parameter: JSON, id: String = "I") -> JSON {
        ["identifier": .string(id), "title": "T", "parameters": [parameter]]
    }

    static func problems(_ section: JSON?, routes: [String] = ["I", "L"]) -> [String] {
        var hello: JSON = ["intents": .array(routes.map { ["name": .string($0), "style": "new"] })]
        if let section { hello = hello.setting(["metadata": ["new_style": section]]) }
        return NewStyleSection.decode(hello: hello, checks: FakeMetadataChecks()).problems
    }

    @Test func theValidSectionHasNoProblem() {
        #expect(Self.problems(Self.section()).isEmpty)
    }

    @Test("section, entity and enum problems")
    func sectionEntityEnum() {
        let cases: [(JSON?, [String], String)] = [
            (nil, ["B", "A"], "A, B declared with style new, but HELLO metadata has no new_style section describing them"),
            ("text", ["I"], "metadata.new_style must be a JSON object"),
            (Self.section(entities: [["type_display_name": "X"]]), ["I", "L"], "entity #1 has no name"),
            (Self.section(entities: [["name": "E", "type_display_name": "X", "query": ["ids": true]],
                                     ["name": "E", "type_display_name": "X", "query": ["ids": true]]]), ["I", "L"],
             "two entity types named E"),
            (Self.section(entities: [["name": "E", "query": ["ids": true]]]), ["I", "L"], "entity type E has no type display name (App Intents' rule: every AppEntity has a typeDisplayRepresentation)"),
            (Self.section(entities: [["name": "E", "type_display_name": "X"]]), ["I", "L"],
             "entity type E has no query: entities(for: ids) is required so that stored ids can be resolved"),
            (Self.section(entities: [["name": "E", "type_display_name": "X", "query": ["ids": false]]]), ["I", "L"],
             "entity type E's query can't look entities up by id (query.ids must be true)"),
            (Self.section(enums: [["cases": [["value": "a", "title": "A"]]]]), ["I", "L"], "enum #1 has no name"),
            (Self.section(enums: [["name": "M", "cases": [["title": "A"], ["value": "a", "title": "A"]]]]), ["I", "L"],
             "enum M has a case without a value"),
            (Self.section(enums: [["name": "M", "cases": [["value": "a", "title": "A"], ["value": "a", "title": "B"]]]]), ["I", "L"],
             #"enum M has two cases "a""#),
            (Self.section(enums: [["name": "M", "cases": [["value": "a"]]]]), ["I", "L"], "enum M: case a has no display name"),
            (Self.section(enums: [["name": "M", "cases": []]]), ["I", "L"], "enum M has no cases"),
        ]
        for (section, routes, expected) in cases {
            #expect(Self.problems(section, routes: routes) == [expected])
        }
    }

    @Test("intent, migration and routing problems")
    func intents() {
        let cases: [([JSON], [String], [String])] = [
            ([["title": "T"]], [], ["intent #1 has no identifier"]),
            ([["identifier": "I", "title": "T"], ["identifier": "I", "title": "U"]], ["I"], ["two intents with the same identifier I"]),
            ([["identifier": "I"]], ["I"], ["intent I has no title"]),
            ([["identifier": "I", "title": "T", "authentication": "sometimes"]], ["I"],
             [#"intent I: authentication "sometimes" is not one of always_allowed, requires_authentication, requires_local_device_authentication"#]),
            ([["identifier": "I", "title": "T"]], [], ["intent I is described in metadata but the plugin does not handle it with style new"]),
            ([["identifier": "I", "title": "T", "migrated_from": "L"], ["identifier": "J", "title": "T", "migrated_from": "L"]], ["I", "J", "L"],
             ["both I and J migrate L; one legacy intent has one replacement"]),
            ([["identifier": "I", "title": "T", "migrated_from": "L"]], ["I"],
             ["intent I migrates L, but the plugin does not route L to it (style new)"]),
            ([["identifier": "I", "title": "T", "migrated_from": "J"], ["identifier": "J", "title": "T"]], ["I", "J"],
             ["intent I migrates J, which is itself a new-style intent"]),
            ([["identifier": "I", "title": "T"]], ["I", "N"], ["intent N is handled with style new but metadata.new_style.intents does not describe it"]),
        ]
        for (intents, routes, expected) in cases {
            #expect(Self.problems(Self.section(intents: intents), routes: routes) == expected)
        }
    }

    @Test("parameter problems, each prefixed with the intent and parameter")
    func parameters() {
        let date = " (date parameters have no ranges: a bound on a date needs the user's time zone and today's date, which the host does not have; check dates in perform())"
        let cases: [(JSON, String)] = [
            (["title": "P", "type": "string"], "I: parameter #1 has no name"),
            (["name": "p", "type": "string"], "I.p: parameter has no title (App Intents' rule: every @Parameter has a title)"),
            (["name": "p", "title": "P", "type": "float"], #"I.p: unknown type "float" (integer, decimal, boolean, string, date, url, entity or enum)"#),
            (["name": "p", "title": "P"], #"I.p: unknown type "" (integer, decimal, boolean, string, date, url, entity or enum)"#),
            (["name": "p", "title": "P", "type": "entity", "entity": "Nope"], "I.p: entity type Nope is not declared in entities"),
            (["name": "p", "title": "P", "type": "entity"], #"I.p: an entity parameter names its entity type ("entity")"#),
            (["name": "p", "title": "P", "type": "enum", "enum": "Nope"], "I.p: enum Nope is not declared in enums"),
            (["name": "p", "title": "P", "type": "enum"], #"I.p: an enum parameter names its enum ("enum")"#),
            (["name": "p", "title": "P", "type": "string", "multiple": "yes"], "I.p: multiple must be true or false"),
            (["name": "p", "title": "P", "type": "string", "min": 1], "I.p: a range needs a numeric type, not string"),
            (["name": "p", "title": "P", "type": "date", "max": 1], "I.p: a range needs a numeric type, not date" + date),
            (["name": "p", "title": "P", "type": "url", "min": 1], "I.p: a range needs a numeric type, not url (date and url parameters have no ranges)"),
            (["name": "p", "title": "P", "type": "integer", "min": "one"], "I.p: range bounds must be numbers"),
            (["name": "p", "title": "P", "type": "decimal", "min": 9, "max": 1.5], "I.p: range 9…1.5 is empty (min > max)"),
            (["name": "p", "title": "P", "type": "integer", "default": "five"], #"I.p: default "five" is invalid: expected an integer"#),
            (["name": "p", "title": "P", "type": "integer", "min": 5, "max": 180, "default": 200], "I.p: default 200 is outside its range 5…180"),
            (["name": "p", "title": "P", "type": "integer", "min": 5, "multiple": true, "default": [7, 2]], "I.p: default [7,2] is outside its range ≥ 5"),
        ]
        for (parameter, expected) in cases {
            #expect(Self.problems(Self.section(intents: [Self.intent(parameter)]), routes: ["I"]) == [expected], "\(parameter.canonicalString)")
        }
        let twice = Self.section(intents: [["identifier": "I", "title": "T", "parameters": [["name": "p", "title": "P", "type": "string"],
                                                                                             ["name": "p", "title": "Q", "type": "url"]]]])
        #expect(Self.problems(twice, routes: ["I"]) == ["I: two parameters named p"])
    }

    @Test("schema problems, through the host's checks")
    func schemas() {
        let find: JSON = ["identifier": "F", "title": "T", "schema": "demo.find", "parameters": [["name": "q", "title": "Q", "type": "string"]]]
        #expect(Self.problems(Self.section(intents: [find]), routes: ["F", "demo.find"]).isEmpty)
        let cases: [([JSON], [String], [String])] = [
            ([find.setting(["schema": 3])], ["F"], ["intent F: schema must be a schema name (demo.find)"]),
            ([find.setting(["schema": "demo.lose"])], ["F"], [#"intent F: unknown assistant schema "demo.lose" (known: demo.find)"#]),
            ([find, find.setting(["identifier": "G"])], ["F", "G", "demo.find"],
             ["both F and G implement demo.find; one plugin implements a schema once"]),
            ([find], ["F"], ["intent F implements demo.find, but the plugin does not route demo.find to it (style new in HELLO intents)"]),
            ([find.setting(["parameters": []])], ["F", "demo.find"], ["F has no q"]),
            ([find.setting(["identifier": "demo.find"])], ["demo.find"],
             ["demo.find is a schema and cannot also be an intent identifier or a migrated name"]),
        ]
        for (intents, routes, expected) in cases {
            #expect(Self.problems(Self.section(intents: intents), routes: routes) == expected)
        }
    }

    @Test("several problems come in the order of the declarations, the host's checks at their place")
    func order() {
        let intents: [JSON] = [
            ["identifier": "A", "schema": "system.search", "parameters": [["name": "criteria", "title": "C", "type": "integer"]]],
            ["identifier": "B", "title": "T", "parameters": [["name": "d", "title": "D", "type": "date", "default": "next friday"]]],
        ]
        let hello: JSON = ["intents": .array(["A", "B", "system.search"].map { ["name": .string($0), "style": "new"] }),
                           "metadata": ["new_style": Self.section(intents: intents, entities: [["name": "E"]])]]
        let problems = NewStyleSection.decode(hello: hello, checks: HostMetadataChecks()).problems
        #expect(problems.count == 5)
        #expect(problems.first == "entity type E has no type display name (App Intents' rule: every AppEntity has a typeDisplayRepresentation)")
        #expect(problems.dropFirst().first == "entity type E has no query: entities(for: ids) is required so that stored ids can be resolved")
        #expect(problems.dropFirst(2).first == "intent A has no title")
        #expect(problems.dropFirst(3).first == "A implements system.search, whose criteria is string, but declares it as integer")
        #expect(problems.last?.hasPrefix(#"B.d: default "next friday" is invalid: expected "#) == true)
        // The host's catalog and `intentbus validate` report the same list.
        #expect(NewStyleCatalog.parse(hello: hello).1 == problems)
        #expect(NewStyleMetadata.problems(inHello: hello) == problems)
    }
}

private extension JSON {
    /// This object with `fields` set.
    func setting(_ fields: [String: JSON]) -> JSON {
        guard case .object(var o) = self else { return self }
        for (k, v) in fields { o[k] = v }
        return .object(o)
    }
}
