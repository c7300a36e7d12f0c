import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusDefinitions

/// The legacy flow's final answer: a response code's dialog rendered into the client's
/// REPLY. One function, `rendered`, makes it, header and body as the bytes sent, for the
/// flow (`finish`) and for the relay lane's rewrite of a run that went all the way
/// (LegacyLaneCheck.swift), so that both send the same bytes.
extension LegacyFlow {
    /// The client's final REPLY for response code `name`, and the warnings the flow logs
    /// with it (undeclared response parameters, values the dialog lacks); an undeclared
    /// code is the plugin's bug: `plugin_error` naming the declared codes.
    struct Rendered {
        /// The header's and the body's canonical JSON text.
        let header: [UInt8]
        let body: [UInt8]
        let warnings: [String]
        /// The code is a success code (the header's status is `success`).
        let succeeded: Bool
    }

    /// `texts`: the canonical bytes of `parametersJSON` and of `response`, when the caller
    /// has them (the lane's `LegacyLaneCheck.rewrite`), copied into the body instead of written again.
    func rendered(code name: String, response: JSON?, phase: LegacyPhase, opens: JSON? = nil, carried: [String: JSON] = [:],
                  intent: String, texts: (parameters: [UInt8], response: UnsafeRawBufferPointer)? = nil) -> Result<Rendered, BusError> {
        guard let code = dialogs.code(name, of: self) else {
            return .failure(BusError(.pluginError,
                "plugin \(pluginId) answered \(intent) (\(phase.rawValue)) with response code '\(name)', which its definition does not declare (declared: \(definition.codes.map(\.name).joined(separator: ", ")))",
                details: ["plugin": .string(pluginId), "code": .string(name)]))
        }
        var warnings: [String] = []
        let values = response?.objectValue ?? [:]
        let types = dialogs.responseTypes
        if values.keys.contains(where: { types[$0] == nil }) {
            let undeclared = values.keys.filter { types[$0] == nil }
            warnings.append("plugin \(pluginId) returned response parameters \(undeclared.sorted().joined(separator: ", ")) that \(intent) does not declare")
        }
        let locale = definition.locale
        let text = { (key: String) in values[key].map { locale.text($0, as: types[key]) } }
        let full = code.full.render(text)
        let concise = code.concise?.render(text) ?? full
        if !full.missing.isEmpty || !concise.missing.isEmpty {
            let missing = Set(full.missing + concise.missing)
            warnings.append("plugin \(pluginId) answered \(intent) with \(name) but gave no \(missing.sorted().joined(separator: ", ")) for its dialog")
        }
        let success = code.definition.success
        // Both written in canonical order (keys sorted by their UTF-8 bytes), as
        // `JSON.canonicalBytes` would write the same objects.
        var body = JSONWriter(capacity: 64 + 2 * full.text.utf8.count)
        // Each constant run (punctuation and keys) in one piece (`JSONWriter.text`).
        body.text("{\"code\":"); body.writeString(name)
        body.text(",\"code_value\":"); body.write(.int(Int64(code.definition.value)))
        body.text(",\"concise_dialog\":"); body.writeString(concise.text)
        body.text(",\"dialog\":"); body.writeString(full.text)
        if let opens { body.text(",\"opens_intent\":"); body.write(opens) }  // continueInApp handing over (RouterCore+LeadOn)
        if let texts {
            body.text(",\"parameters\":"); texts.parameters.withUnsafeBytes { body.canonical($0) }
            body.text(",\"response\":"); body.canonical(texts.response)
        } else {
            body.text(",\"parameters\":"); body.write(parametersJSON)
            body.text(",\"response\":"); body.write(.object(values))
        }
        body.text(success ? ",\"success\":true}" : ",\"success\":false}")
        let header = carried.isEmpty && deprecations.isEmpty
            ? code.header : header(code: name, success: success, carried: carried, deprecations: deprecations)
        return .success(Rendered(header: header, body: body.bytes, warnings: warnings, succeeded: success))
    }

    /// The final REPLY's header: `code`, the `deprecations` of the names the client used,
    /// `plugin`, `status`, and what the plugin's handle REPLY carried (its donation); with
    /// neither, the code's own (`LegacyDialogs.Code.header`).
    func header(code name: String, success: Bool, carried: [String: JSON], deprecations: [String]) -> [UInt8] {
        let status = success ? "success" : "failure"
        guard carried.isEmpty else {
            var header = ReplyHeaderKey.header([.status: .string(status), .plugin: .string(pluginId), .code: .string(name)])
            if !deprecations.isEmpty { header[.deprecations] = .array(deprecations.map { .string($0) }) }
            header.merge(carried) { own, _ in own }
            return JSON.object(header).canonicalBytes
        }
        var header = JSONWriter(capacity: 64)
        header.raw(UInt8(ascii: "{"))
        header.key("code"); header.writeString(name); header.raw(UInt8(ascii: ","))
        if !deprecations.isEmpty {
            header.key("deprecations"); header.write(.array(deprecations.map { .string($0) }))
            header.raw(UInt8(ascii: ","))
        }
        header.key("plugin"); header.writeString(pluginId); header.raw(UInt8(ascii: ","))
        header.key("status"); header.writeString(status)
        header.raw(UInt8(ascii: "}"))
        return header.bytes
    }

    /// Ends the request with the code's rendered dialog (`rendered`), or its error.
    func finish(code name: String, response: JSON?, phase: LegacyPhase, opens: JSON? = nil, carried: [String: JSON] = [:],
                _ exchange: Exchange, _ ops: any FlowOperations) {
        switch rendered(code: name, response: response, phase: phase, opens: opens, carried: carried, intent: exchange.intent) {
        case .failure(let error):
            ops.fail(exchange, error)
        case .success(let final):
            for warning in final.warnings { ops.logger.warning("\(warning)") }
            // As a REPLY to pass on: a body that may lead on (`opens_intent`) is read again
            // for it (`FlowOperations.finish(_:forwarding:)`), as a flow's final is.
            ops.finish(exchange, forwarding: WireMessage(kind: .reply, header: Frame(bytes: final.header),
                                                         body: Frame(bytes: final.body)))
        }
    }
}

/// A legacy intent's response codes with their dialogs taken apart once
/// (`FormatString.Prepared`) and its response parameters' types by name: what `rendered`
/// reads of the definition for every request. The relay lane's check keeps one per intent
/// (LegacyLaneCheck.swift); a flow of the general path makes its own when it renders.
/// A code is prepared the first time it is rendered. Router thread only.
final class LegacyDialogs {
    /// A class: `rendered` holds one per request, a reference rather than a copy of its fields.
    final class Code {
        let definition: ResponseCodeDefinition
        let full: FormatString.Prepared
        let concise: FormatString.Prepared?
        /// The final REPLY's header for this code when the client used no deprecated name
        /// and the plugin carried no donation (`LegacyFlow.header`).
        let header: [UInt8]

        init(definition: ResponseCodeDefinition, full: FormatString.Prepared, concise: FormatString.Prepared?, header: [UInt8]) {
            self.definition = definition
            self.full = full
            self.concise = concise
            self.header = header
        }
    }

    private let definition: IntentDefinition
    private var codes: [String: Code] = [:]
    /// Each declared response parameter's type (the first, for a name declared twice).
    let responseTypes: [String: ParameterType]

    init(_ definition: IntentDefinition) {
        self.definition = definition
        var types: [String: ParameterType] = [:]
        for parameter in definition.responseParameters where types[parameter.name] == nil {
            types[parameter.name] = parameter.type
        }
        responseTypes = types
    }

    /// The code named `name` (the first, as `IntentDefinition.code` finds it), nil when the
    /// definition does not declare it.
    func code(_ name: String, of flow: LegacyFlow) -> Code? {
        if let known = codes[name] { return known }
        guard let code = definition.code(name) else { return nil }
        let prepared = Code(definition: code,
                            full: FormatString(code.formatString ?? GenericResponseCodes.defaultDialog(code.name) ?? "").prepared,
                            concise: code.conciseFormatString.map { FormatString($0).prepared },
                            header: flow.header(code: name, success: code.success, carried: [:], deprecations: []))
        codes[name] = prepared
        return prepared
    }
}
