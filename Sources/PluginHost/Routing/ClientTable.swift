import Foundation
import IntentBusManifest

/// A frontend peer's identity bytes as a dictionary key, hashed and compared as raw
/// bytes (`Data`'s own hash and == go through Foundation's generic paths, which cost
/// more on the hot path, docs/performance.md).
struct PeerKey: Hashable {
    let identity: Data

    func hash(into hasher: inout Hasher) {
        identity.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: PeerKey, b: PeerKey) -> Bool {
        guard a.identity.count == b.identity.count else { return false }
        return a.identity.withUnsafeBytes { x in
            b.identity.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}

/// One client connection (a frontend peer) as the router core sees it: its open
/// requests, and its budget of remembered-choice writes.
///
/// Owned by the router thread.
final class ClientState {
    let identity: Data
    /// The client's open requests: its request id → the host id of the exchange.
    var open: [String: UInt64] = [:]
    /// The header and body bytes of those requests (`Exchange.requestBytes`).
    var openBytes = 0
    /// Its grant in `host.clients`, once its connection's key has been read.
    var grant: ClientGrant?
    /// CURVE frontend: the User-Id of the connection that first used this routing id
    /// (`bound`); a message with another one comes from a new connection that reused the
    /// id (`bindClient`, Pipeline/RequestPipeline+Plugins.swift).
    var user: String?
    var bound = false
    /// The connection is known to be gone: nothing is sent to its routing id any more.
    var gone = false
    /// Its rate budgets: the connection's own until its grant is known, then the ones
    /// every connection of that client shares (`ClientTable.rates(for:)`), so that a
    /// fresh connection per request does not get a fresh budget.
    var rates = ClientRates()

    init(identity: Data) { self.identity = identity }

    /// Takes one request from the bucket; false when the client is over its rate.
    func takeRequestToken(now: UInt64, perSecond: Int, burst: Int) -> Bool {
        rates.requests.take(now: now, perSecond: perSecond, burst: burst)
    }

    /// Takes one remembered-choice write from the bucket; false when the client is over
    /// its rate.
    func takeWriteToken(now: UInt64, perSecond: Int, burst: Int) -> Bool {
        rates.writes.take(now: now, perSecond: perSecond, burst: burst)
    }
}

/// One client's token buckets: requests (its grant's `rate`) and remembered-choice writes
/// (limits.choice_writes_per_second).
final class ClientRates {
    var requests = TokenBucket()
    var writes = TokenBucket()
}

/// A token bucket: `burst` tokens at first, refilled at `perSecond`.
struct TokenBucket {
    private var tokens: Double = -1
    private var refilledAt: UInt64 = 0

    mutating func take(now: UInt64, perSecond: Int, burst: Int) -> Bool {
        if tokens < 0 { tokens = Double(burst) } else {
            tokens = min(Double(burst), tokens + Double(now &- refilledAt) / 1e9 * Double(perSecond))
        }
        refilledAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}

/// The core's clients by identity. Entries with nothing open are swept in bulk once the
/// table has doubled, so a stream of short-lived connections does not grow it without
/// bound, at an amortised O(1) per request.
///
/// Owned by the router thread.
struct ClientTable {
    private var entries: [PeerKey: ClientState] = [:]
    private var sweepAt = 1_024
    /// Rate budgets by authenticated client name (names come from the manifest only).
    private var named: [String: ClientRates] = [:]

    /// The budgets every connection authenticated as `name` shares.
    mutating func rates(for name: String) -> ClientRates {
        if let rates = named[name] { return rates }
        let rates = ClientRates()
        named[name] = rates
        return rates
    }

    var count: Int { entries.count }

    /// The state of the client with `identity`, made when it is new.
    mutating func state(for identity: Data) -> ClientState {
        let key = PeerKey(identity: identity)
        if let state = entries[key] { return state }
        if entries.count >= sweepAt { sweep() }
        let state = ClientState(identity: identity)
        entries[key] = state
        return state
    }

    /// A fresh state for `identity`, replacing what was kept for it (a connection that
    /// reused the routing id inherits nothing).
    mutating func replace(_ identity: Data) -> ClientState {
        let state = ClientState(identity: identity)
        entries[PeerKey(identity: identity)] = state
        return state
    }

    /// The state of a known client, or nil.
    func existing(_ identity: Data) -> ClientState? { entries[PeerKey(identity: identity)] }

    private mutating func sweep() {
        entries = entries.filter { !$0.value.open.isEmpty }
        sweepAt = max(1_024, entries.count * 2)
    }
}
