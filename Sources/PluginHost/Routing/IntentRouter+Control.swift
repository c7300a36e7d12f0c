import Foundation
import IntentBus

/// A host intent request, as a control handler sees it.
struct ControlRequest {
    let intent: String
    /// The request header (client identity, credential, …).
    let options: JSON
    /// The request body, parsed.
    let body: JSON
}

/// Where a forwarded host intent goes: a plugin and the body it receives.
struct ControlForward {
    let pluginIndex: Int
    let body: JSON
}

/// Host intents (`ib.*`), answered without any plugin (docs/protocol.md §6).
extension IntentRouter {
    func handleControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON) {
        let body: JSON
        switch msg.intent {
        case "ib.ping":
            body = ["protocol": .int(WireProtocol.version), "pid": .int(Int64(getpid()))]
        case "ib.plugins":
            body = ["plugins": .array(slots.map(pluginSummary)), "conflicts": conflicts()]
        default:
            if let forwarder = controlForwarders[msg.intent] {
                let parsed: JSON
                do { parsed = try msg.bodyJSON() } catch {
                    return reject(envelope, msg, BusError(.badFrame, "the body is \(error.message)"))
                }
                switch forwarder(ControlRequest(intent: msg.intent, options: options, body: parsed)) {
                case .success(let forward): return forwardControl(envelope, msg, options: options, to: forward)
                case .failure(let error): return reject(envelope, msg, error)
                }
            }
            if let deferred = deferredControlHandlers[msg.intent] {
                return handleDeferredControl(envelope, msg, options: options, deferred)
            }
            guard let handler = controlHandlers[msg.intent] else {
                let known = (["ib.ping", "ib.plugins"] + (Array(controlHandlers.keys) + Array(controlForwarders.keys)
                    + Array(deferredControlHandlers.keys)).sorted()).joined(separator: ", ")
                return reject(envelope, msg, BusError(.unknownIntent, "\(msg.intent) is not a host intent (\(known))"))
            }
            let parsed: JSON
            do { parsed = try msg.bodyJSON() } catch {
                return reject(envelope, msg, BusError(.badFrame, "the body is \(error.message)"))
            }
            switch handler(ControlRequest(intent: msg.intent, options: options, body: parsed)) {
            case .success(let result): body = result
            case .failure(let error): return reject(envelope, msg, error)
            }
        }
        sendToClient(envelope, WireMessage(kind: .reply, requestId: msg.requestId, intent: msg.intent,
                                           header: ["status": "success", "plugin": "ib"], body: body))
    }

    /// A host intent answered later (a change that must commit first), within the
    /// client's rate of such changes.
    private func handleDeferredControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON,
                                       _ handler: (ControlRequest, @escaping (Result<JSON, BusError>) -> Void) -> Void) {
        let parsed: JSON
        do { parsed = try msg.bodyJSON() } catch {
            return reject(envelope, msg, BusError(.badFrame, "the body is \(error.message)"))
        }
        let limits = manifest.host.limits
        guard clients.state(for: envelope.identity).takeWriteToken(now: MonotonicClock.now(), perSecond: limits.choiceWritesPerSecond,
                                                                   burst: limits.choiceWriteBurst) else {
            return reject(envelope, msg, choiceWriteRateError())
        }
        let (requestId, intent) = (msg.requestId, msg.intent)
        handler(ControlRequest(intent: intent, options: options, body: parsed)) { [unowned self] result in
            switch result {
            case .success(let body):
                sendToClient(envelope, WireMessage(kind: .reply, requestId: requestId, intent: intent,
                                                   header: ["status": "success", "plugin": "ib"], body: body))
            case .failure(let error):
                sendToClient(envelope, WireMessage(kind: .error, requestId: requestId, intent: intent,
                                                   header: nil, body: error.json))
            }
        }
    }

    func pluginSummary(_ slot: PluginSlot) -> JSON {
        var o: [String: JSON] = [
            "id": .string(slot.spec.id), "name": .string(slot.spec.name), "state": .string(slot.stateName),
            "intents": .array(slot.spec.intentsSupported.map { .string($0) }),
            "styles": .object(slot.styles.mapValues { .string($0.rawValue) }),
            "restarts": .int(Int64(slot.restarts)), "in_flight": .int(Int64(slot.inFlight)),
            "exec": .string(slot.spec.exec.path),
        ]
        if let pid = slot.pid { o["pid"] = .int(Int64(pid)) }
        if case .failed(let reason) = slot.state { o["reason"] = .string(reason) }
        if let e = slot.lastError { o["last_error"] = .string(e) }
        if !slot.spec.intentsRestrictedWhileLocked.isEmpty {
            o["restricted"] = .array(slot.spec.intentsRestrictedWhileLocked.map { .string($0) })
        }
        return .object(o)
    }

    /// Every intent claimed by more than one plugin, with the claimants' ids.
    func conflicts() -> JSON {
        var out: [String: JSON] = [:]
        for (intent, indices) in routes where indices.count > 1 {
            out[intent] = .array(indices.map { .string(slots[$0].spec.id) })
        }
        return .object(out)
    }
}
