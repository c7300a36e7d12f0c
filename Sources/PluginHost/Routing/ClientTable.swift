import Foundation
import IntentBus

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
    /// Its grant in `host.clients`, once its connection's key has been read.
    var grant: ClientGrant?
    /// Requests: its grant's `rate`.
    private var requests = TokenBucket()
    /// Remembered-choice writes: limits.choice_writes_per_second.
    private var writes = TokenBucket()

    init(identity: Data) { self.identity = identity }

    /// Takes one request from the bucket; false when the client is over its rate.
    func takeRequestToken(now: UInt64, perSecond: Int, burst: Int) -> Bool {
        requests.take(now: now, perSecond: perSecond, burst: burst)
    }

    /// Takes one remembered-choice write from the bucket; false when the client is over
    /// its rate.
    func takeWriteToken(now: UInt64, perSecond: Int, burst: Int) -> Bool {
        writes.take(now: now, perSecond: perSecond, burst: burst)
    }
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

    /// The state of a known client, or nil.
    func existing(_ identity: Data) -> ClientState? { entries[PeerKey(identity: identity)] }

    private mutating func sweep() {
        entries = entries.filter { !$0.value.open.isEmpty }
        sweepAt = max(1_024, entries.count * 2)
    }
}
