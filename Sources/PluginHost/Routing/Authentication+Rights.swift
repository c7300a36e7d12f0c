import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What an authenticated client may do (docs/security.md). When the frontend takes CURVE
/// clients, each connection carries the User-Id the ZAP handler gave it ("client:NAME"),
/// and the manifest's grant for NAME decides: which intents, restricted ones or not,
/// whether it may change other clients' remembered choices, and how fast it may ask.
/// Its name is its client identity, whatever its header says. Values in, answers out:
/// the core asks these (RouterCore+Requests.swift), the choice intents through the core.
extension Authentication {
    /// The grant of the client that sent `frames` (identity first), read once per
    /// connection from the message's User-Id and kept in `state`; nil when clients are not
    /// authenticated. A grant found gets its rates from `clients`.
    func grant(for state: ClientState, frames: [Frame], clients: inout ClientTable) -> ClientGrant? {
        guard clientKeysRequired else { return nil }
        if let known = state.grant { return known }
        guard frames.count > 1 else { return nil }
        guard let user = frames[1].property("User-Id") else {
            // No connection metadata at all: an inproc peer, which only the host's own
            // helpers can be (InternalEndpoint). A tcp or ipc peer always has Socket-Type.
            if frames[1].property("Socket-Type") == nil { state.grant = .hostInternal }
            return state.grant
        }
        guard user.hasPrefix("client:") else { return nil }
        let name = String(user.dropFirst("client:".count))
        state.grant = host.clients.first { $0.name == name }
        if state.grant != nil { state.rates = clients.rates(for: name) }
        return state.grant
    }

    /// Why an authenticated client may not send this request, or nil. Also makes its
    /// client identity the one its key names. `now`: monotonic ns, for its rate.
    func rightsProblem(_ grant: ClientGrant?, _ msg: WireMessage, _ state: ClientState, options: inout JSON,
                       now: UInt64) -> BusError? {
        guard clientKeysRequired else { return nil }
        guard let grant else {
            return BusError(.forbidden, "this connection is not authenticated as any client in host.clients")
        }
        guard grant.allows(msg.intent) || msg.intent == "ib.ping" else {
            return BusError(.forbidden, "client \(grant.name) may not call \(msg.intent) (allowed: \(grant.intents.joined(separator: ", ")))",
                            details: ["client": .string(grant.name)])
        }
        if case .object(var fields) = options {
            if let claimed = fields["client"]?.stringValue, claimed != grant.name, !grant.manageChoices {
                return BusError(.forbidden, "client \(grant.name) may not act as client \(claimed)",
                                details: ["client": .string(grant.name)])
            }
            if fields["client"] == nil || !grant.manageChoices { fields["client"] = .string(grant.name) }
            fields["authenticated"] = .string(grant.name)
            options = .object(fields)
        }
        if let perSecond = grant.ratePerSecond,
           !state.takeRequestToken(now: now, perSecond: perSecond, burst: grant.rateBurst ?? perSecond) {
            return BusError(.busy, "client \(grant.name) sends more than \(perSecond) requests a second (its rate in host.clients); try again shortly",
                            details: ["retry_after_ms": .int(Int64(max(1, 1_000 / perSecond)))])
        }
        return nil
    }

    /// Changing remembered choices beyond one's own needs `manage_choices`.
    func choiceChangeProblem(_ request: ControlRequest) -> BusError? {
        guard clientKeysRequired else { return nil }
        guard let name = request.options["authenticated"]?.stringValue,
              let grant = host.clients.first(where: { $0.name == name }) else {
            return BusError(.forbidden, "not authenticated")
        }
        if grant.manageChoices { return nil }
        let target = request.body["client"]?.stringValue
        if target == grant.name, request.body["all"]?.boolValue != true { return nil }
        return BusError(.forbidden, "client \(grant.name) may change only its own remembered choices (\"client\": \"\(grant.name)\"); manage_choices in host.clients allows more",
                        details: ["client": .string(grant.name)])
    }
}

/// Compares secrets without leaking where they differ through timing.
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    var diff = UInt8(x.count == y.count ? 0 : 1)
    for i in 0..<max(x.count, y.count) {
        diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
    }
    return diff == 0
}
