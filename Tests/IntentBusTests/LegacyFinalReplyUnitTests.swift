import Foundation
import Testing
import IntentBusDefinitions
@testable import IntentBus
@testable import PluginHost

/// The legacy flow's final REPLY (Legacy/LegacyFlow+Finish.swift): `rendered` writes its
/// header and body keys itself, in canonical order, and renders the code's dialog from
/// the parts `FormatString.Prepared` took apart once. Each must be the bytes the same
/// objects give through `JSON.canonicalBytes` (what the flow sent before), whatever the
/// code, the response's keys, the deprecations, the carried donation or `opens_intent`.
@Suite("Legacy final REPLY bytes (unit)")
struct LegacyFinalReplyUnitTests {
    static let definitionText = """
    intents:
      - name: FinalIntent
        parameters:
          - {name: target, type: String}
          - {name: count, type: Integer}
        response:
          parameters:
            - {name: target, type: String}
            - {name: n, type: Integer}
          codes:
            - {name: sent, success: true, formatString: "Sent ${target} (${n}) — ${target}!", conciseFormatString: "${target}"}
            - {name: refused, success: false, formatString: "No ${n} for ${target}, $ {x}"}
    """

    private func flow() throws -> LegacyFlow {
        let definition = try #require(DefinitionLoader.decode(text: Self.definitionText, file: "f.yaml").definitions.first)
        let flow = LegacyFlow(definition: definition, pluginId: "plug", oneTrip: true)
        flow.parameters = ["target": "Zoë", "count": 3]
        return flow
    }

    /// What the flow wrote before: the same fields as dictionaries, sorted by `canonicalBytes`.
    private func expected(_ flow: LegacyFlow, code: String, value: Int64, success: Bool, dialog: String, concise: String,
                          response: [String: JSON], opens: JSON? = nil, deprecations: [String] = [],
                          carried: [String: JSON] = [:]) -> (header: String, body: String) {
        var header: [String: JSON] = ["status": .string(success ? "success" : "failure"), "plugin": "plug", "code": .string(code)]
        if !deprecations.isEmpty { header["deprecations"] = .array(deprecations.map { .string($0) }) }
        header.merge(carried) { own, _ in own }
        var body: [String: JSON] = ["code": .string(code), "code_value": .int(value), "success": .bool(success),
                                    "dialog": .string(dialog), "concise_dialog": .string(concise),
                                    "response": .object(response), "parameters": .object(flow.parameters)]
        if let opens { body["opens_intent"] = opens }
        return (JSON.object(header).canonicalString, JSON.object(body).canonicalString)
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("header and body are the canonical bytes of the same objects, with the dialogs rendered as before")
    func sameAsCanonical() throws {
        let flow = try flow()
        let response: [String: JSON] = ["target": "Zoë", "n": 2, "é": "undeclared", "a\"b": .null]
        let final = try flow.rendered(code: "sent", response: .object(response), phase: .handle, intent: "FinalIntent").get()
        let want = expected(flow, code: "sent", value: 100, success: true, dialog: "Sent Zoë (2) — Zoë!", concise: "Zoë",
                            response: response)
        #expect(text(final.header) == want.header)
        #expect(text(final.body) == want.body)
        #expect(final.succeeded)
        #expect(final.warnings == ["plugin plug returned response parameters a\"b, é that FinalIntent does not declare"])
        // A code's cached header serves the next request too.
        let again = try flow.rendered(code: "sent", response: .object(response), phase: .handle, intent: "FinalIntent").get()
        #expect(again.header == final.header && again.body == final.body)
    }

    @Test("a failure code with a missing value and text that is no placeholder; deprecations; a carried donation; opens_intent")
    func otherShapes() throws {
        let flow = try flow()
        let refused = try flow.rendered(code: "refused", response: nil, phase: .confirm, intent: "FinalIntent").get()
        let dialog = "No  for , $ {x}"
        var want = expected(flow, code: "refused", value: 101, success: false, dialog: dialog, concise: dialog, response: [:])
        #expect(text(refused.header) == want.header && text(refused.body) == want.body, "\(text(refused.body))")
        #expect(!refused.succeeded)
        #expect(refused.warnings == ["plugin plug answered FinalIntent with refused but gave no n, target for its dialog"])

        flow.deprecations = ["'recipient' is deprecated; it was taken as 'recipients'"]
        let opens: JSON = ["intent": "OtherIntent", "parameters": ["x": 1]]
        let carried: [String: JSON] = ["donation": ["intent": "FinalIntent"], "status": "overridden?"]
        let handed = try flow.rendered(code: "continueInApp", response: ["target": "x"], phase: .handle, opens: opens,
                                       carried: carried, intent: "FinalIntent").get()
        want = expected(flow, code: "continueInApp", value: 2, success: true, dialog: "Continue in the app.",
                        concise: "Continue in the app.", response: ["target": "x"], opens: opens,
                        deprecations: flow.deprecations, carried: carried)
        #expect(text(handed.header) == want.header, "\(text(handed.header))")
        #expect(text(handed.body) == want.body)
        let deprecated = try flow.rendered(code: "sent", response: ["target": "y", "n": 1], phase: .handle, intent: "FinalIntent").get()
        #expect(text(deprecated.header) == expected(flow, code: "sent", value: 100, success: true, dialog: "", concise: "",
                                                    response: [:], deprecations: flow.deprecations).header)
    }

    @Test("a resolution's value is the flow's parameter byte for byte, whether it was left in place or written")
    func resolvedBytes() throws {
        // (given, resolved) for target (String) and count (Integer): the parameter must end as
        // the resolved value coerced, as writing it always made it.
        let cases: [(given: JSON, resolved: JSON, name: String)] = [
            ("Zoë", "Zoë", "target"), ("Zoe\u{308}", "Zoë", "target"), ("Zoë", "Zoe\u{308}", "target"), ("a", "b", "target"),
            ("2", 2, "target"), (2, "2", "target"), (3, 3, "count"), (3, 4, "count"), (3, "3", "count"), (3, 3.0, "count"),
        ]
        for (given, resolved, name) in cases {
            let flow = try flow()
            flow.parameters[name] = given
            flow.runSent(flow.parameters)
            let body: JSON = ["resolutions": .object([name: ["result": "success", "value": resolved]])]
            guard case .success(nil) = flow.applyResolutions(["target", "count"], body, intent: "FinalIntent") else {
                Issue.record("\(given) → \(resolved): not settled"); continue
            }
            let parameter = try #require(flow.definition.parameter(name))
            let expected = try ParameterCoercion.coerce(resolved, parameter, in: flow.definition).get()
            let value = try #require(flow.parameters[name])
            #expect(value.writesSameBytes(as: expected), "\(given) → \(resolved): \(value)")
            #expect(flow.settled == ["target", "count"])
        }
        // Left in place: a string or number that writes the same bytes; anything else is written.
        let same: [(JSON, JSON?)] = [("Zoë", "Zoë"), (3, 3), (true, true)]
        let other: [(JSON, JSON?)] = [("Zoë", "Zoe\u{308}"), (3.0, 3), (3, "3"), ("a", nil), (["a": 1], ["a": 1]), (.null, .null), (true, false)]
        for (value, current) in same { #expect(value.isSameScalar(as: current), "\(value)") }
        for (value, current) in other { #expect(!value.isSameScalar(as: current), "\(value) \(String(describing: current))") }
    }

    @Test("an undeclared code is the plugin's error, naming the declared codes")
    func undeclared() throws {
        guard case .failure(let error) = try flow().rendered(code: "bogus", response: nil, phase: .handle, intent: "FinalIntent") else {
            Issue.record("an undeclared code rendered"); return
        }
        #expect(error.code == .pluginError && error.message.contains("'bogus', which its definition does not declare"))
    }

    @Test("a prepared format string renders what the template says, placeholder by placeholder")
    func prepared() {
        let format = FormatString("${a}${b} and ${a}, ${c} ${ d} $${a}} {x}")
        let (text, missing) = format.prepared.render { ["a": "1", "b": "2"][$0] }
        #expect(text == "12 and 1,   $1} {x}")
        #expect(missing == ["c", " d"])
        #expect(FormatString("${only}").prepared.render { _ in nil } == ("", ["only"]))
        #expect(FormatString("").prepared.render { _ in "x" } == ("", []))
    }
}

/// The relay lane's check for legacy requests (Legacy/LegacyLaneCheck.swift) passes a body
/// only when the flow would send those very bytes.
@Suite("Legacy lane check (unit)")
struct LegacyLaneCheckUnitTests {
    static let definitionText = """
    enums:
      - name: Drink
        cases: [café, tea]
    intents:
      - name: OrderIntent
        parameters:
          - {name: drink, type: Drink}
          - {name: count, type: Integer}
    """

    @Test("a value the flow would send otherwise is not passed, even when Swift's == calls it the same")
    func sameBytesOnly() throws {
        let decoded = DefinitionLoader.decode(text: Self.definitionText, file: "o.yaml")
        let definition = try #require(decoded.definitions.first, "\(decoded.diagnostics)")
        let check = LegacyLaneCheck(intent: "OrderIntent", definition: definition, pluginId: "p", translated: false)
        func passes(_ body: String) -> Bool { Array(body.utf8).withUnsafeBytes { check.passes(body: $0) != nil } }
        #expect(passes(#"{"count":2,"drink":"café"}"#))
        #expect(passes(#"{"drink":"tea"}"#))
        // "cafe" and a combining acute accent: `==` the case's name "café", which the flow
        // would send in its place.
        #expect(!passes("{\"drink\":\"cafe\u{301}\"}"))
        #expect(!passes(#"{"drink":"TEA"}"#))     // the flow sends "tea"
        #expect(!passes(#"{"count":2.0}"#))       // the flow sends 2
        #expect(!passes(#"{"drink":"tea","count":2}"#))  // not canonical text
    }
}
