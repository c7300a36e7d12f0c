import Foundation
import IntentBusCore
import IntentBusWire

/// Host intents (`ib.*`, docs/protocol.md §6): `ib.ping` and `ib.plugins` (its answer is
/// `PluginsReport`) here; the rest come from the choice logic and from extensions, all
/// through `hostIntents`.
extension RouterCore {
    func installCoreIntents() {
        hostIntents["ib.ping"] = .answer { _ in
            .success(["protocol": .int(WireProtocol.version), "pid": .int(Int64(getpid()))])
        }
        hostIntents["ib.plugins"] = .answer { [unowned self] _ in
            .success(PluginsReport(slots: slots, routes: routes, instances: instancesSummary).json)
        }
        installPluginControl()
        installReload()
    }

    func handleControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON) {
        guard let handler = hostIntents[msg.intent] else {
            let known = hostIntents.keys.sorted().joined(separator: ", ")
            return reject(envelope, msg, BusError(.unknownIntent, "\(msg.intent) is not a host intent (\(known))"))
        }
        let body: JSON
        do { body = try msg.bodyJSON() } catch {
            // Parameters that are not JSON are wrong parameters, as for every intent (§2, §6).
            return reject(envelope, msg, BusError(.invalidParameters, "the body (the parameters of \(msg.intent)) is \(error.message)"))
        }
        let request = ControlRequest(intent: msg.intent, options: options, body: body)
        let (requestId, intent) = (msg.requestId, msg.intent)
        let answer: (Result<JSON, BusError>) -> Void = { [unowned self] result in
            switch result {
            case .success(let body):
                effects.sendToClient(envelope, WireMessage(kind: .reply, requestId: requestId, intent: intent,
                                                           header: .object(ReplyHeaderKey.header([.status: "success", .plugin: "ib"])), body: body))
            case .failure(let error):
                reject(envelope, msg, error)
            }
        }
        switch handler {
        case .answer(let handle):
            answer(handle(request))
        case .later(let handle):
            let limits = manifest.host.limits
            // Remembered-choice changes are rate-limited per client; other deferred host
            // intents have limits of their own.
            guard !msg.intent.hasPrefix("ib.choices.") || book.clients.state(for: envelope.identity).takeWriteToken(now: effects.now(), perSecond: limits.choiceWritesPerSecond,
                                                                       burst: limits.choiceWriteBurst) else {
                return reject(envelope, msg, ChoiceDefaults.writeRateError(limits))
            }
            handle(request, answer)
        case .forward(let route):
            switch route(request) {
            case .success(let forward): forwardControl(envelope, msg, options: options, to: forward)
            case .failure(let error): reject(envelope, msg, error)
            }
        case .handOn(let pick):
            switch pick(request) {
            case .success(let handOn): self.handOn(envelope, msg, options: options, as: handOn)
            case .failure(let error): reject(envelope, msg, error)
            }
        }
    }

    /// Hands a host intent's request on as an ordinary request for `request.intent`
    /// with `request.parameters` (and `plugin` in the header when given): the usual
    /// admission, routing, choice prompt, flows, prompts, progress and final answer,
    /// under the client's request id. The client's own header (client, credential,
    /// timeout_ms, choice) still applies.
    func handOn(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON, as request: HandOn) {
        var header = options.objectValue ?? [:]
        if let plugin = request.plugin { header["plugin"] = .string(plugin) }
        startRequest(envelope, WireMessage(kind: .request, requestId: msg.requestId, intent: request.intent,
                                           header: .object(header), body: request.parameters))
    }
}
