import Foundation
import IntentBusCore
import IntentBusWire

/// Legacy in one round trip (docs/protocol.md §8.9): for a plugin that announced the
/// `run` phase, each resolve round is a `run` request instead. The plugin resolves the
/// names it is given and, when none of them needs the user, confirms and handles at once
/// and answers all three in one REPLY. The host takes that REPLY apart exactly as three
/// phase REPLYs — it checks every resolved value, renders the code's dialog — and where the
/// plugin stopped (a resolution that needs the user, a confirm that is not ready), it goes
/// on as the phased flow does: asks the client, then sends the next `run`.
extension LegacyFlow {
    /// Asks the plugin to resolve `names` (none: only confirm and handle are left), then
    /// confirm and handle while nothing needs asking.
    func run(_ names: [String], _ exchange: Exchange, _ ops: any FlowOperations) {
        stage = .running(names)
        ops.sendToPlugin(exchange, kind: .request, header: runHeader(names, options: exchange.options), body: parametersJSON)
    }

    /// The `run` REQUEST's header for `names`, for a request whose checked header is `options`.
    func runHeader(_ names: [String], options: JSON) -> JSON {
        let required = definition.parameters.filter(\.required).map { JSON.string($0.name) }
        return header(.run, options: options, extra: ["resolve": .array(names.map { .string($0) }),
                                                      "required": .array(required), "codes": codeNames])
    }

    /// The plugin's answer to `run`: `resolutions`, then `confirm` and `handle` as far as
    /// it got.
    func ran(_ names: [String], _ body: JSON, _ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {
        let wentOn = body["confirm"] != nil || body["handle"] != nil
        // A plugin that confirmed or handled past a question has acted without the user's
        // answer; asking now could only make it act twice.
        let ranPast = BusError(.pluginError,
            "plugin \(pluginId) confirmed or handled \(exchange.intent) in its run although a parameter still needs the user")
        switch applyResolutions(names, body, intent: exchange.intent) {
        case .failure(let error):
            return ops.fail(exchange, error)
        case .success(let question?):
            return wentOn ? ops.fail(exchange, ranPast) : askAbout(question, exchange, ops)
        case .success(nil):
            break
        }
        let open = definition.parameters.map(\.name).filter { !settled.contains($0) }
        guard open.isEmpty else { return wentOn ? ops.fail(exchange, ranPast) : resolve(open, exchange, ops) }
        // Settled, but the plugin stopped before confirm: the phased confirm takes over.
        guard let confirmation = body["confirm"] else { return confirm(exchange, ops) }
        let handled = body["handle"].map { (body: $0, carried: Self.donationFields(message)) }
        confirmed(confirmation, exchange, ops, handled: handled)
    }

    // MARK: - On the relay lane (LegacyLaneCheck.swift)

    /// As after `start` sent its first `run` for `given`, parameters the relay lane's check
    /// passed: `take` would leave them as they are (valid, normalized, nothing to add or
    /// rename: `LegacyLaneCheck.passes` asked it), so they are taken as they are.
    func runSent(_ given: [String: JSON]) {
        parameters = given
        rounds = 1
        stage = .running(definition.parameters.map(\.name))
    }

    /// The final answer `ran` gives, after `runSent`, to a first `run`'s REPLY `body` that
    /// went all the way: every resolution settled its parameter with the value as given,
    /// confirm ready or not implemented, handle answered with a declared code, no view or
    /// intent to open, nothing to warn about; with confirm's answer (`confirmNote`). Nil for anything else, which `ran` must see
    /// (the lane promotes the request). `ran`'s own steps (`applyResolutions`, `confirmed`,
    /// `handled`) in the order it takes them, and its one render (`rendered`).
    func finalOfRun(_ body: JSON, intent: String) -> (final: Rendered, confirmation: JSON)? {
        guard case .running(let names) = stage else { return nil }
        let given = parameters
        guard case .success(nil) = applyResolutions(names, body, intent: intent), parameters == given,
              definition.parameters.allSatisfy({ settled.contains($0.name) }),
              let confirmation = body["confirm"], let handled = body["handle"] else { return nil }
        guard goesOn(afterConfirm: confirmation), let code = handled["code"]?.stringValue, handled["opens_intent"] == nil,
              case .success(let final) = rendered(code: code, response: handled["response"], phase: .handle, intent: intent),
              final.warnings.isEmpty else { return nil }
        return (final, confirmation)
    }
}

extension JSON {
    /// Whether `self` is a string, integer or boolean that writes the same bytes as `other`
    /// (`writesSameBytes`): then it is the same value in every respect, and `other` may stay
    /// where it is (`LegacyFlow.applyResolutions`). Nested values are not compared (an
    /// object's order of iteration may differ).
    func isSameScalar(as other: JSON?) -> Bool {
        switch (self, other) {
        case (.string, .string?), (.int, .int?), (.bool, .bool?): writesSameBytes(as: other!)
        default: false
        }
    }
}
