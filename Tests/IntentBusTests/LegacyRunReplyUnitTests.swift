import Foundation
import Testing
@testable import IntentBusCore
@testable import IntentBusLegacy
import IntentBusPlugin

/// The SDK writes a legacy `run` REPLY body itself (`LegacyRunReply.canonicalBody`): it must
/// be the canonical text of the same reply as a `JSON` object, whatever the run answered.
@Suite struct LegacyRunReplyUnitTests {
    @Test("a run's body, written member by member, is the bytes its JSON gives: every kind of resolution, confirm and handle answer")
    func runBodyIsItsJSONsCanonicalText() {
        let resolutionSets: [[String: ResolutionResult]] = [
            [:],
            ["text": .success("plain")],
            ["zeta": .success(["nested": [1, 2.5, true], "a": .null]), "Ärger": .success("ü \"q\" \u{1F600}\n"), "alpha": .notRequired],
            ["a": .needsValue, "b": .unsupported(reason: "tooLong"), "c": .unsupported(),
             "d": .confirmationRequired(42), "e": .disambiguation([ResolutionOption(id: "x", title: "X", subtitle: "sub", value: "v"),
                                                                   ResolutionOption(id: "y", title: "Y")]),
             "f": .items([.success("one"), .needsValue])],
        ]
        let confirms: [LegacyConfirmBody?] = [nil, .notImplemented, .ready, .answered(["implemented": false]),
                                              .answered(["code": "failureRequiringAppLaunch", "response": ["reason": "later"]])]
        let handles: [LegacyHandled?] = [nil, LegacyHandled(code: "success", response: [:], opens: nil),
                                         LegacyHandled(code: "success", response: ["text": "hi", "count": 3], opens: ["intent": "Next", "parameters": [:]])]
        var checked = 0
        for resolutions in resolutionSets { for confirm in confirms { for handle in handles {
            let reply = LegacyRunReply(resolutions: resolutions, confirm: confirm, handle: handle)
            var o: [String: JSON] = ["resolutions": .object(resolutions.mapValues(\.json))]
            if let confirm { o["confirm"] = confirm.json }
            if let handle { o["handle"] = handle.json }
            let written = reply.canonicalBody
            #expect(written == JSON.object(o).canonicalBytes, "\(String(decoding: written, as: UTF8.self))")
            #expect(reply.pluginReply.body == .object(o))
            checked += 1
        } } }
        #expect(checked == 4 * 5 * 3)
        // The constants are the bodies the host reads as going on (`LegacyFlow.goesOn`).
        #expect(LegacyConfirmBody.notImplemented.json == ["implemented": false] && LegacyConfirmBody.ready.json == ["code": "ready"])
    }
}

/// The legacy layer reads a delivery header's words once per header value
/// (`LegacyHeaderWords`, kept by the loop's header serial).
@Suite struct LegacyHeaderWordsUnitTests {
    static let run: JSON = ["phase": "run", "style": "legacy", "client": "kitchen", "codes": ["success", 7, "failure"],
                            "resolve": ["text", "count"], "required": ["text"]]

    @Test("the words are what the header's fields say; missing or mistyped fields read as before")
    func words() {
        let w = LegacyHeaderWords(Self.run)
        #expect(w.phase == .run && w.client == "kitchen" && w.declared == ["success", "failure"])
        #expect(w.resolve == ["text", "count"] && w.required == ["text"])
        let bare = LegacyHeaderWords(["phase": "Resolve", "codes": "success", "client": 5])
        #expect(bare.phase == nil && bare.declared == nil && bare.resolve == nil && bare.required.isEmpty && bare.client == nil)
        #expect(LegacyHeaderWords(.object([:])).phase == nil)
    }

    @Test("kept by the header's serial: one serial, one header's words; another serial, or none, reads its own")
    func keptBySerial() {
        let other: JSON = ["phase": "handle", "client": "hall"]
        func request(_ header: JSON, _ serial: UInt64) -> PluginRequest {
            PluginRequest(id: "r", intent: "I", header: header, parameters: .object([:]), headerSerial: serial)
        }
        // Serials far from the loop's own counter (a test may run beside a plugin loop).
        let a = UInt64.max - 10, b = UInt64.max - 11
        #expect(LegacyHeaderWords.of(request(Self.run, a)).phase == .run)
        #expect(LegacyHeaderWords.of(request(Self.run, a)).client == "kitchen")
        #expect(LegacyHeaderWords.of(request(other, b)).phase == .handle)
        #expect(LegacyHeaderWords.of(request(Self.run, a)).declared == ["success", "failure"])
        // Serial 0: the header was not kept by the loop; its own words, nothing kept.
        #expect(LegacyHeaderWords.of(request(other, 0)).client == "hall")
        #expect(LegacyHeaderWords.of(request(Self.run, 0)).client == "kitchen")
    }
}
