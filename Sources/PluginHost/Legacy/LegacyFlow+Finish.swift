import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusDefinitions

/// The legacy flow's final answer: a response code's dialog rendered into the client's
/// REPLY. One function, `rendered`, makes it, for the flow (`finish`) and for the relay
/// lane's rewrite of a run that went all the way (LegacyLaneCheck.swift), so that both
/// send the same bytes.
extension LegacyFlow {
    /// The client's final REPLY for response code `name`, and the warnings the flow logs
    /// with it (undeclared response parameters, values the dialog lacks); an undeclared
    /// code is the plugin's bug: `plugin_error` naming the declared codes.
    struct Rendered {
        let header: JSON
        let body: JSON
        let warnings: [String]
        /// The code is a success code (the header's status is `success`).
        let succeeded: Bool
    }

    func rendered(code name: String, response: JSON?, phase: LegacyPhase, opens: JSON? = nil, carried: [String: JSON] = [:],
                  intent: String) -> Result<Rendered, BusError> {
        guard let code = definition.code(name) else {
            return .failure(BusError(.pluginError,
                "plugin \(pluginId) answered \(intent) (\(phase.rawValue)) with response code '\(name)', which its definition does not declare (declared: \(definition.codes.map(\.name).joined(separator: ", ")))",
                details: ["plugin": .string(pluginId), "code": .string(name)]))
        }
        var warnings: [String] = []
        let values = response?.objectValue ?? [:]
        let undeclared = values.keys.filter { key in !definition.responseParameters.contains { $0.name == key } }
        if !undeclared.isEmpty {
            warnings.append("plugin \(pluginId) returned response parameters \(undeclared.sorted().joined(separator: ", ")) that \(intent) does not declare")
        }
        var texts: [String: String] = [:]
        for (key, value) in values {
            texts[key] = definition.locale.text(value, as: definition.responseParameters.first { $0.name == key }?.type)
        }
        let full = FormatString(code.formatString ?? GenericResponseCodes.defaultDialog(code.name) ?? "").render(texts)
        let concise = code.conciseFormatString.map { FormatString($0).render(texts) } ?? full
        let missing = Set(full.missing + concise.missing)
        if !missing.isEmpty {
            warnings.append("plugin \(pluginId) answered \(intent) with \(name) but gave no \(missing.sorted().joined(separator: ", ")) for its dialog")
        }
        let status = code.success ? "success" : "failure"
        var header = ReplyHeaderKey.header([.status: .string(status), .plugin: .string(pluginId), .code: .string(name)])
        if !deprecations.isEmpty { header[.deprecations] = .array(deprecations.map { .string($0) }) }
        header.merge(carried) { own, _ in own }
        var body: [String: JSON] = ["code": .string(name), "code_value": .int(Int64(code.value)), "success": .bool(code.success),
                                    "dialog": .string(full.text), "concise_dialog": .string(concise.text),
                                    "response": .object(values), "parameters": parametersJSON]
        if let opens { body["opens_intent"] = opens }  // continueInApp handing over (RouterCore+LeadOn)
        return .success(Rendered(header: .object(header), body: .object(body), warnings: warnings, succeeded: code.success))
    }

    /// Ends the request with the code's rendered dialog (`rendered`), or its error.
    func finish(code name: String, response: JSON?, phase: LegacyPhase, opens: JSON? = nil, carried: [String: JSON] = [:],
                _ exchange: Exchange, _ ops: any FlowOperations) {
        switch rendered(code: name, response: response, phase: phase, opens: opens, carried: carried, intent: exchange.intent) {
        case .failure(let error):
            ops.fail(exchange, error)
        case .success(let final):
            for warning in final.warnings { ops.logger.warning("\(warning)") }
            ops.finish(exchange, header: final.header, body: final.body)
        }
    }
}
