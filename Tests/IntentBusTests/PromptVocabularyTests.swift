import Foundation
import Testing
import IntentBus
import PluginHost
import IntentBusTestSupport

/// One prompt vocabulary (docs/protocol.md §4.4 "Parameter fields"): a legacy value
/// question (FONIC's TopUpIntent, German) and a new-style one (LevelIntent) carry the same
/// fields, and `invalid_parameters` has the same details in both styles. Real host, real
/// plugins, real sockets.
@Suite("One prompt vocabulary, end to end", .serialized)
struct PromptVocabularyTests {
    static let plugins = TestManifest(.balance(), .newStyle("ns", intents: NewStyleListTests.intents, env: ["NEWSTYLE_LISTS": "1"]))

    /// The fields every value question about a ranged integer carries, in both styles.
    static let shared: Set<String> = ["kind", "parameter", "dialog", "type", "type_title", "minimum", "maximum", "range"]

    @Test("value questions: same type names and range fields (integers stay integers); the type title in the definition's language")
    func valueQuestions() throws {
        let host = try TestHost(Self.plugins, waitReady: ["balance", "ns"])
        defer { host.stop() }
        let client = try host.client()

        var legacy = Conversation([20])
        let topUp = try client.send("TopUpIntent", onEvent: legacy.handle)
        #expect(topUp.body["code"] == "success")
        var newStyle = Conversation([3])
        let level = try client.send("LevelIntent", onEvent: newStyle.handle)
        #expect(level.body["dialog"] == "Level 3.")

        let l = try #require(legacy.prompts.first?.raw.objectValue)
        let n = try #require(newStyle.prompts.first?.raw.objectValue)
        #expect(Self.shared.isSubset(of: Set(l.keys)), "\(l.keys.sorted())")
        #expect(Self.shared.isSubset(of: Set(n.keys)), "\(n.keys.sorted())")
        #expect(l["type"] == "Integer" && n["type"] == "Integer")
        // An Integer range is sent as 5, not 5.0.
        #expect(l["minimum"] == .int(5) && l["maximum"] == .int(100))
        #expect(n["minimum"] == .int(1) && n["maximum"] == .int(5))
        #expect(l["range"] == "5…100" && n["range"] == "1…5")
        // The legacy definition is German: so is the type's title; new style has no locale.
        #expect(l["type_title"] == "Ganzzahl")
        #expect(l["language"] == "de" && n["language"] == nil, "a legacy question names its dialog's language")
        #expect(n["type_title"] == "whole number")
    }

    @Test("a legacy custom type (Person) is marked queryable: false, so clients don't ask ib.entities for it")
    func legacyCustomTypeIsNotQueryable() throws {
        let host = try TestHost(TestManifest(.messenger()), waitReady: ["messenger"])
        defer { host.stop() }
        let talk = Conversation([])
        _ = try? host.client().send("INSendMessageIntent", parameters: ["content": "hi"], onEvent: talk.handle)
        let asked = try #require(talk.prompts.first { $0.raw["entity"] != nil }, "\(talk.prompts.map(\.raw))")
        #expect(asked.raw["queryable"] == false, "\(asked.raw)")
    }

    @Test("after a type error the question shows the new reason, not the previous one")
    func reaskShowsNewReason() throws {
        let host = try TestHost(Self.plugins, waitReady: ["balance"])
        defer { host.stop() }
        let client = try host.client()
        // 7 is not a multiple of five (unsupported, with its reason), "viel" is not an
        // Integer, 20 fits.
        let talk = Conversation(["viel", 20])
        let reply = try client.send("TopUpIntent", parameters: ["amount": 7], onEvent: talk.handle)
        #expect(reply.body["code"] == "success")
        #expect(talk.prompts.count == 2)
        #expect(talk.prompts[0].dialog == "Aufladungen gibt es nur in 5-€-Schritten. Wie viel Euro möchten Sie aufladen?")
        #expect(talk.prompts[0].raw["unsupported"]?["reason"] == "notMultipleOfFive")
        let again = talk.prompts[1]
        // In the definition's language (de_DE), not "expected an Integer".
        #expect(again.raw["problem"] == "Betrag: „viel“ passt nicht – erwartet: Ganzzahl, 5…100.")
        #expect(again.dialog.hasSuffix("Wie viel Euro möchten Sie aufladen?"))
        #expect(!again.dialog.contains("5-€-Schritten"), "the earlier reason is gone: \(again.dialog)")
        #expect(again.raw["unsupported"] == nil)
    }

    @Test("invalid_parameters has the same details in both styles; new-style enums take display names")
    func invalidParametersAndEnums() throws {
        let host = try TestHost(Self.plugins, waitReady: ["balance", "ns"])
        defer { host.stop() }
        let client = try host.client()
        let legacy = try #require(busError { _ = try client.send("TopUpIntent", parameters: ["amount": 500]) { _ in nil } })
        let newStyle = try #require(busError { _ = try client.send("LevelIntent", parameters: ["level": 9]) { _ in nil } })
        for (error, intent, parameter) in [(legacy, "TopUpIntent", "amount"), (newStyle, "LevelIntent", "level")] {
            #expect(error.code == .invalidParameters)
            #expect(Set(error.details.objectValue?.keys.map { $0 } ?? []) == ["parameter", "intent", "problems"])
            #expect(error.details["parameter"] == .string(parameter))
            #expect(error.details["intent"] == .string(intent))
            let problem = try #require(error.details["problems"]?.arrayValue?.first)
            #expect(Set(problem.objectValue?.keys.map { $0 } ?? []) == ["parameter", "expected", "problem"])
            #expect(problem["expected"] == "Integer")
        }
        let unknown = try #require(busError { _ = try client.send("LevelIntent", parameters: ["level": 2, "x": 1]) { _ in nil } })
        #expect(unknown.details["problems"]?.arrayValue?.first?["problem"] == "unknown")

        // A display name, in any case, as for a legacy enum.
        let named = try client.send("LevelIntent", parameters: ["level": 2, "kind": "pick one"]) { _ in nil }
        #expect(named.body["snippet"]?["kind"] == "disambiguation")
        let wrong = try #require(busError { _ = try client.send("LevelIntent", parameters: ["level": 2, "kind": "nope"]) { _ in nil } })
        #expect(wrong.details["problems"]?.arrayValue?.first?["expected"] == "QuestionKind")
    }
}
