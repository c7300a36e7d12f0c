import Foundation
import Testing
@testable import IntentBusCore
@testable import IntentBusLegacy

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
        let confirms: [JSON?] = [nil, ["implemented": false], ["code": "ready"],
                                 ["code": "failureRequiringAppLaunch", "response": ["reason": "later"]]]
        let handles: [LegacyHandled?] = [nil, LegacyHandled(code: "success", response: [:], opens: nil),
                                         LegacyHandled(code: "success", response: ["text": "hi", "count": 3], opens: ["intent": "Next", "parameters": [:]])]
        var checked = 0
        for resolutions in resolutionSets { for confirm in confirms { for handle in handles {
            let reply = LegacyRunReply(resolutions: resolutions, confirm: confirm, handle: handle)
            var o: [String: JSON] = ["resolutions": .object(resolutions.mapValues(\.json))]
            if let confirm { o["confirm"] = confirm }
            if let handle { o["handle"] = handle.json }
            let written = reply.canonicalBody
            #expect(written == JSON.object(o).canonicalBytes, "\(String(decoding: written, as: UTF8.self))")
            #expect(reply.pluginReply.body == .object(o))
            checked += 1
        } } }
        #expect(checked == 4 * 4 * 3)
    }
}
