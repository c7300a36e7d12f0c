import Foundation
import Testing
import IntentBus

/// The protocol's words that host, SDK and CLI share from IntentBusCore: the legacy phases,
/// the resolution kinds, the prompt kinds, the reply-header keys, the yes/no words (docs/design.md, "Modules").
@Suite("Protocol words")
struct ProtocolWordsTests {
    @Test("every ResolutionResult the SDK writes names a kind the host reads, and each kind is written")
    func resolutionKinds() {
        let results: [ResolutionResult] = [.success(1), .needsValue, .notRequired, .unsupported(reason: "tooFar"),
                                           .confirmationRequired("x"), .disambiguation([ResolutionOption(id: "a", title: "A")])]
        let kinds = results.compactMap { $0.json["result"]?.stringValue.flatMap(ResolutionKind.init(rawValue:)) }
        #expect(kinds == ResolutionKind.allCases)
        #expect(ResolutionKind(rawValue: "maybe") == nil)
        #expect(ResolutionKind.words == "success, needsValue, notRequired, unsupported, confirmationRequired, disambiguation")
    }

    @Test("the legacy phases are the words of docs/protocol.md §8: resolve, confirm, handle, and options (§8.5)")
    func legacyPhases() {
        #expect(LegacyPhase.allCases.map(\.rawValue) == ["resolve", "confirm", "handle", "options", "run"])
        #expect(LegacyPhase(rawValue: "Resolve") == nil)
        // The delivery header's reading gives what the raw value does, for every word and others.
        for word in LegacyPhase.allCases.map(\.rawValue) + ["Resolve", "run ", "", "runs", "optionss", "handle\u{0}", "résolve"] {
            #expect(LegacyPhase(word: word) == LegacyPhase(rawValue: word), "\(word)")
        }
    }

    @Test("the prompt kinds are the wire words of docs/protocol.md §4.4; an unknown word is no kind")
    func promptKinds() {
        #expect(PromptKind.allCases.map(\.rawValue) == ["value", "confirmation", "disambiguation", "plugin_choice"])
        #expect(PromptKind(rawValue: "pluginChoice") == nil)
        #expect(PromptKind.pluginChoice.json == "plugin_choice")
    }

    @Test("the reply-header keys are the wire words docs/protocol.md names, each in backquotes there")
    func replyHeaderKeys() throws {
        #expect(ReplyHeaderKey.allCases.map(\.rawValue) == [
            "status", "plugin", "code", "deprecations", "opens", "opened_by", "migrated_from", "handled_by",
            "unmapped_parameters", "donation", "delete_donations", "entities_changed",
        ])
        #expect(ReplyHeaderKey.donationKeys == ["donation", "delete_donations"])
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/protocol.md")
        let protocolText = try String(contentsOf: docs, encoding: .utf8)
        for key in ReplyHeaderKey.allCases { #expect(protocolText.contains("`\(key.rawValue)`"), "\(key.rawValue)") }
        // The host's and the SDK's scans of a REPLY header's bytes look for "donation",
        // which both donation keys contain (ShortcutCenter.mentionsDonation).
        #expect(ReplyHeaderKey.donationKeys.allSatisfy { $0.contains("donation") })
        // Typed access reads and writes the same fields as the strings.
        var header = ReplyHeaderKey.header([.status: "success", .plugin: "ib"])
        header[.entitiesChanged] = true
        #expect(JSON.object(header) == ["status": "success", "plugin": "ib", "entities_changed": true])
        #expect(JSON.object(header)[.plugin] == "ib" && header[.code] == nil)
    }

    @Test("yes and no in English, German and French, in any case; anything else is no answer")
    func yesNo() {
        for word in ["yes", "Y", "true", "ja", "J", "oui", "O"] { #expect(YesNoWords.answer(word) == true, "\(word)") }
        for word in ["no", "N", "false", "nein", "NON"] { #expect(YesNoWords.answer(word) == false, "\(word)") }
        for word in ["", "maybe", "1", "jein", "yes please"] { #expect(YesNoWords.answer(word) == nil, "\(word)") }
        // No word answers both ways ("n" is no in all three).
        for (language, words) in YesNoWords.table { #expect(words.yes.isDisjoint(with: words.no), "\(language)") }
        let yes = YesNoWords.table.values.reduce(into: Set<String>()) { $0.formUnion($1.yes) }
        let no = YesNoWords.table.values.reduce(into: Set<String>()) { $0.formUnion($1.no) }
        #expect(yes.isDisjoint(with: no))
    }
}
