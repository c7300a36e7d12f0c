import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusTestSupport
@testable import PluginHost
@testable import IntentBusStore

/// The choice policy as a value (Choices/ChoicePolicy.swift): candidates, the default
/// that applies and the request's options in, a decision out. No core, no store: the
/// slots come from a manifest, the remembered choice is written here.
@Suite("Choice policy")
struct ChoicePolicyTests {
    /// Slots for plugins a (priority 1), b (priority 5), c (priority 5), all claiming I,
    /// and d, claiming I but disabled in the manifest.
    private static func slots() throws -> [PluginSlot] {
        let yaml = TestManifest.core([.core("a", intents: ["I"]).priority(1), .core("b", intents: ["I"]).priority(5),
                                      .core("c", intents: ["I"]).priority(5),
                                      .core("d", intents: ["I"]).enabled(false)]).yaml
        let manifest = try ManifestLoader.load(text: yaml, path: "/nonexistent/choice-policy/plugins.yaml")
        return manifest.plugins.enumerated().map { PluginSlot(index: $0.offset, spec: $0.element) }
    }

    private static func policy(_ candidates: [Int] = [0, 1, 2]) throws -> ChoicePolicy {
        ChoicePolicy(intent: "I", candidates: candidates, slots: try slots())
    }

    private static func remembered(_ plugin: String, client: String? = nil) -> RememberedChoice {
        RememberedChoice(intent: "I", client: client, plugin: plugin, setAt: Date(timeIntervalSince1970: 0), source: "always")
    }

    private static func code(_ choice: PluginChoice) -> String? {
        if case .failure(let error) = choice { return error.code.rawValue }
        return nil
    }

    @Test("the header's plugin: a candidate is taken; disabled, not claiming or unknown get their own error")
    func named() throws {
        let policy = try Self.policy([0, 1])
        guard case .plugin(1) = policy.named("b") else { Issue.record("b is a candidate"); return }
        #expect(Self.code(policy.named("d")) == "plugin_unavailable")
        #expect(Self.code(policy.named("c")) == "unknown_plugin", "c claims I but is not a candidate here")
        guard case .failure(let none) = policy.named("zz") else { Issue.record("no such plugin"); return }
        #expect(none.message == "there is no plugin \"zz\"" && none.details["candidates"]?.arrayValue?.count == 2)
    }

    @Test("the header's choice: ask when absent or not a string, the three modes, nil for anything else")
    func modes() {
        #expect(ChoicePolicy.Mode(header: nil) == .ask && ChoicePolicy.Mode(header: .int(3)) == .ask)
        #expect(ChoicePolicy.Mode(header: "fail") == .fail && ChoicePolicy.Mode(header: "default") == .default)
        #expect(ChoicePolicy.Mode(header: "random") == nil)
        #expect(ChoicePolicy.badMode("random").code == .badFrame)
    }

    @Test("a remembered default that can serve routes there, under every mode")
    func rememberedApplies() throws {
        let policy = try Self.policy()
        let fallback = ChoicePolicy.Default(plugin: "c", remembered: Self.remembered("c", client: "kim"), unavailable: nil)
        for mode in ChoicePolicy.Mode.allCases {
            let decision = policy.decide(mode, default: fallback)
            #expect(decision.outcome == .plugin(2) && decision.rule == "remembered" && decision.staleReason == nil)
            #expect(decision.explanation.contains("client kim") && decision.explanation.contains("1970-01-01T00:00:00.000Z"))
        }
    }

    @Test("a stale default stops the search: ask again (or fail) and say why, never route elsewhere")
    func staleDefault() throws {
        let policy = try Self.policy()
        let failing = ChoicePolicy.Default(plugin: "b", remembered: Self.remembered("b"), unavailable: "it is failing: crashed")
        let ask = policy.decide(.ask, default: failing)
        #expect(ask.outcome == .ask && ask.rule == "prompt")
        #expect(ask.staleReason == "Your default for I, b, is no longer available (it is failing: crashed)")
        // Under `default` the highest priority is not taken instead: the stale default fails.
        let byDefault = policy.decide(.default, default: failing)
        #expect(byDefault.outcome == .fail && byDefault.rule == "choice_required")
        let gone = policy.decide(.ask, default: .init(plugin: "d", remembered: nil, unavailable: nil))
        #expect(gone.staleReason == "The manifest's default for I, d, is not available (not a candidate for I)")
        guard case .ask(let prompt) = policy.choice(ask) else { Issue.record("asks"); return }
        #expect(prompt["reason"]?.stringValue == ask.staleReason && prompt["kind"]?.stringValue == "plugin_choice")
        #expect(prompt["options"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["a", "b", "c"])
        guard case .failure(let error) = policy.choice(byDefault) else { Issue.record("fails"); return }
        #expect(error.code == .choiceRequired && error.details["reason"]?.stringValue == ask.staleReason)
        #expect(error.message.hasPrefix("Your default for I, b, is no longer available (it is failing: crashed); 3 plugins claim I"))
    }

    @Test("no default: a preset routes; else default takes a unique top priority, a tie fails; ask asks, fail fails")
    func noRememberedChoice() throws {
        let policy = try Self.policy()
        let preset = policy.decide(.fail, default: .init(plugin: "a", remembered: nil, unavailable: nil))
        #expect(preset.outcome == .plugin(0) && preset.rule == "preset")
        let tie = policy.decide(.default, default: nil)
        #expect(tie.outcome == .fail && tie.explanation.contains("b, c share the highest priority (5)"))
        let unique = try Self.policy([0, 1]).decide(.default, default: nil)
        #expect(unique.outcome == .plugin(1) && unique.rule == "priority")
        #expect(policy.decide(.ask, default: nil).outcome == .ask && policy.decide(.fail, default: nil).outcome == .fail)
        guard case .failure(let error) = policy.choice(policy.decide(.fail, default: nil)) else { Issue.record("fails"); return }
        #expect(error.message == "3 plugins claim I (a, b, c); name one with the header's \"plugin\"")
    }

    @Test("the client's answer: its pick once or always; an unusable one asks again naming why; the third ends it")
    func answers() throws {
        let policy = try Self.policy()
        guard case .chosen(1, always: false) = policy.answer(["value": "b"], badAnswers: 0, staleReason: nil),
              case .chosen(2, always: true) = policy.answer(["value": "c", "remember": "always"], badAnswers: 2, staleReason: nil),
              case .chosen(0, always: true) = policy.answer(["value": "a", "remember": true], badAnswers: 0, staleReason: nil)
        else { Issue.record("usable answers route"); return }
        guard case .askAgain(let again) = policy.answer(["value": "zz"], badAnswers: 0, staleReason: "old default gone") else {
            Issue.record("asks again"); return
        }
        #expect(again["error"]?.stringValue == "\"zz\" is not one of the choices (a, b, c)" && again["reason"]?.stringValue == "old default gone")
        guard case .askAgain(let remember) = policy.answer(["value": "a", "remember": "forever"], badAnswers: 1, staleReason: nil) else {
            Issue.record("a bad remember asks again"); return
        }
        #expect(remember["error"]?.stringValue == "\"remember\" is \"once\" or \"always\", not \"forever\"")
        guard case .failure(let end) = policy.answer(nil, badAnswers: ChoicePolicy.maximumBadAnswers - 1, staleReason: nil) else {
            Issue.record("the third unusable answer ends the request"); return
        }
        #expect(end.code == .choiceRequired && end.message.hasPrefix("no usable plugin choice after 3 answers"))
    }
}
