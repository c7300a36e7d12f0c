import Foundation
import IntentBusCore
import IntentBusDefinitions

/// The relay lane's check for a legacy intent (docs/design.md "Legacy requests on the
/// lane"): the requests whose first `run` (docs/protocol.md §8.9) `LegacyFlow` would send
/// with the client's body as it is, and whose plugin then answers all the way, cost the
/// host what a plain request does plus the dialog's rendering.
///
/// `LegacyExtension.laneCheck` makes one per intent at each routing change, only for an
/// intent whose plugin announced `run` for it and that has a definition (the one a request
/// without `locale` gets); a lane request's header carries no run key and no context
/// (LaneHeaders), a locale only when the definition has no translations. `passes` takes the body as the flow does (`LegacyFlow.take`)
/// and passes it only when the flow would send exactly those bytes: canonical JSON, every
/// value valid and normalized as given, no deprecated name, no default added. It reads the
/// body once: in place (`LegacyBodyScan`) for a flat canonical body, else parsed
/// (`passedParsed`); either way it gives the parameters the flow took (`LanePass`), which
/// the lane keeps with the request for `rewrite` and `deliveredFlow`.
///
/// The plugin's REPLY is not forwarded: `rewrite` makes the client's final REPLY with the
/// flow's own steps and render (`LegacyFlow.finalOfRun`) when the run went all the way;
/// anything else promotes the request to a `LegacyFlow` as after its `run` was sent
/// (`deliveredFlow`), which takes the REPLY (or PROMPT, ERROR…) as it always does.
final class LegacyLaneCheck: LaneRequestCheck {
    private let definition: IntentDefinition
    private let pluginId: String
    private let intent: String
    /// The intent's dialogs, prepared once for the flows this check makes.
    private let dialogs: LegacyDialogs
    /// The body's first reading, in place (nil for a definition it cannot answer for).
    private let scan: LegacyBodyScan?
    /// The first `run` REQUEST's header: every parameter to resolve, the required ones, the
    /// codes; the same for every request without options.
    let pluginHeader: [UInt8]
    /// Whether the intent's definition has translations: a request with a `locale` may then
    /// get another definition (`DefinitionCatalog.definition(of:plugin:locale:)`), so it
    /// goes the general path's way.
    private let translated: Bool

    init(intent: String, definition: IntentDefinition, pluginId: String, translated: Bool) {
        self.intent = intent
        self.definition = definition
        self.pluginId = pluginId
        self.translated = translated
        dialogs = LegacyDialogs(definition)
        scan = LegacyBodyScan(definition)
        pluginHeader = Self.runHeader(definition, pluginId: pluginId, client: nil)
    }

    /// The first `run`'s header with the client's name (`LegacyFlow.header`); a locale
    /// changes nothing else the flow does unless the definition is translated.
    func pluginHeader(client: String?, locale: String?) -> [UInt8]? {
        guard locale == nil || !translated else { return nil }
        return Self.runHeader(definition, pluginId: pluginId, client: client)
    }

    /// The flow's first `run` header (`LegacyFlow.runHeader`): every parameter to resolve,
    /// the required ones, the codes, and the client's name when it has one.
    private static func runHeader(_ definition: IntentDefinition, pluginId: String, client: String?) -> [UInt8] {
        let options: JSON = client.map { ["client": .string($0)] } ?? .object([:])
        return LegacyFlow(definition: definition, pluginId: pluginId, oneTrip: true)
            .runHeader(definition.parameters.map(\.name), options: options).canonicalBytes
    }

    /// The flow the REPLYs the scan reads are rendered with, one for every request: with the
    /// parameters' and the response's texts given, `rendered` reads only its definition,
    /// dialogs and plugin (neither its parameters nor its stage) and changes nothing in it.
    private lazy var renderer = flow()

    private func flow() -> LegacyFlow { LegacyFlow(definition: definition, pluginId: pluginId, oneTrip: true, dialogs: dialogs) }

    /// The scan's parameters when it has them (a flat canonical body: no tree), else the
    /// parse's (`passedParsed`); the two agree wherever the scan answers (LegacyBodyScanTests).
    func passes(body: UnsafeRawBufferPointer) -> LanePass? {
        guard let parameters = scan?.parameters(body) ?? passedParsed(body: body) else { return nil }
        // Canonical, and the parameters' own text: the final REPLY writes it as it is.
        return LanePass(parameters: parameters, text: Array(body))
    }

    /// The flow's decisions on the parsed body, what `passes` falls back to: the parameters
    /// `take` leaves, when the flow would send the body's bytes as they are; else nil.
    func passedParsed(body: UnsafeRawBufferPointer) -> [String: JSON]? {
        var canonical = false
        guard body.count > 0, let parsed = try? JSON.parse(bytes: body, isCanonical: &canonical), canonical,
              let given = parsed.objectValue else { return nil }
        let flow = flow()
        // The same bytes, not `==`: an enum value canonically equivalent to its case's name
        // but spelled otherwise is `==` the name the flow sends instead.
        guard flow.take(given) == nil, flow.deprecations.isEmpty, JSON.object(flow.parameters).writesSameBytes(as: parsed) else {
            return nil
        }
        return flow.parameters
    }

    /// Never as it is: the flow writes the client's REPLY itself (`rewrite`).
    func forwards(replyBody: UnsafeRawBufferPointer) -> Bool { false }

    /// The REPLY body read in place when the scan reads it (LegacyRunScan.swift: a run that
    /// went all the way with the parameters as given, as the SDKs write it), else parsed
    /// (`rewriteParsed`); the two agree wherever the scan answers (LegacyRunScanTests).
    func rewrite(requestId: UnsafeRawBufferPointer, passed: LanePass, replyHeader: UnsafeRawBufferPointer,
                 replyBody: UnsafeRawBufferPointer, logger: Logger) -> LaneRewrite? {
        // The flow reads a REPLY header only for the donation it may carry on (`donationFields`).
        guard let given = passed.parameters, !ShortcutCenter.mentionsDonation(replyHeader) else { return nil }
        guard let run = scan?.run(replyBody, given: given), let text = passed.text else {
            return rewriteParsed(requestId: requestId, given: given, replyBody: replyBody, logger: logger)
        }
        // `finalOfRun`'s answer for such a REPLY: every parameter settled as given, confirm
        // going on, handle answered with a code and a response and nothing more; what is left
        // is its render and its checks, with the texts copied in (`rendered`'s `texts`).
        let texts = (parameters: text, response: UnsafeRawBufferPointer(rebasing: replyBody[run.responseText]))
        guard case .success(let final) = renderer.rendered(code: run.code, response: run.response, phase: .handle, intent: intent, texts: texts),
              final.warnings.isEmpty else { return nil }
        // The flow's own line for confirm's answer (`confirmed`), made only when it is logged.
        logger.debug(renderer.confirmNote(run.confirmImplemented ? ["code": "ready"] : ["implemented": false],
                                          request: String(decoding: requestId, as: UTF8.self), intent: intent))
        return LaneRewrite(header: final.header, body: final.body, succeeded: final.succeeded)
    }

    /// `rewrite` on the parsed REPLY body, with the flow's steps (`LegacyFlow.finalOfRun`).
    func rewriteParsed(requestId: UnsafeRawBufferPointer, given: [String: JSON], replyBody: UnsafeRawBufferPointer,
                       logger: Logger) -> LaneRewrite? {
        guard let reply = try? JSON.parse(bytes: replyBody) else { return nil }
        let flow = flow()
        flow.runSent(given)
        guard let (final, confirmation) = flow.finalOfRun(reply, intent: intent) else { return nil }
        // The flow's own line for confirm's answer (`confirmed`).
        logger.debug(flow.confirmNote(confirmation, request: String(decoding: requestId, as: UTF8.self), intent: intent))
        return LaneRewrite(header: final.header, body: final.body, succeeded: final.succeeded)
    }

    func deliveredFlow(body: UnsafeRawBufferPointer, passed: LanePass) -> any ExchangeFlow {
        let flow = flow()
        if let given = passed.parameters { flow.runSent(given) }
        return flow
    }
}
