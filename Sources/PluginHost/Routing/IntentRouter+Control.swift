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

/// What a hand-on host intent (ib.say) runs: an ordinary request for `intent` with
/// `parameters`, on `plugin` when given (else the usual choice).
struct HandOn {
    let intent: String
    let parameters: JSON
    let plugin: String?
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
            if let handOnHandler = controlHandOns[msg.intent] {
                let parsed: JSON
                do { parsed = try msg.bodyJSON() } catch {
                    return reject(envelope, msg, BusError(.badFrame, "the body is \(error.message)"))
                }
                switch handOnHandler(ControlRequest(intent: msg.intent, options: options, body: parsed)) {
                case .success(let request): return handOn(envelope, msg, options: options, as: request)
                case .failure(let error): return reject(envelope, msg, error)
                }
            }
            guard let handler = controlHandlers[msg.intent] else {
                let known = (["ib.ping", "ib.plugins"] + (Array(controlHandlers.keys) + Array(controlForwarders.keys)
                    + Array(controlHandOns.keys)).sorted()).joined(separator: ", ")
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
