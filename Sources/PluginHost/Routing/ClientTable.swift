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

/// One client connection (a frontend peer) as the router sees it: its open requests,
/// and the messages waiting for it to read again.
///
/// Owned by the router thread.
final class ClientState {
    let identity: Data
    /// The client's open requests: its request id → the host id of the exchange.
    var open: [String: UInt64] = [:]
    /// Messages that found the client's pipe full, oldest first (`backlogHead` is the
    /// next to send). Sent in order once it reads again.
    private(set) var backlog: [[Frame]] = []
    private var backlogHead = 0
    private(set) var backlogBytes = 0
    /// Messages dropped because the backlog was full, since the last report in the log.
    var dropped = 0
    var droppedTotal = 0
    var lastDropReport: UInt64 = 0
    /// Remembered-choice writes: a token bucket (limits.choice_writes_per_second).
    var writeTokens: Double = -1
    var writeRefilledAt: UInt64 = 0

    init(identity: Data) { self.identity = identity }

    /// Whether messages wait for this client: new ones queue behind them.
    var isCongested: Bool { backlogHead < backlog.count }
    var backlogCount: Int { backlog.count - backlogHead }

    /// Keeps `frames` to send later, unless that would pass `limit` messages or
    /// `byteLimit` bytes; returns false (and counts the drop) then.
    func enqueue(_ frames: [Frame], limit: Int, byteLimit: Int) -> Bool {
        let size = frames.reduce(0) { $0 + $1.count }
        guard backlogCount < limit, backlogBytes + size <= byteLimit else {
            dropped += 1
            droppedTotal += 1
            return false
        }
        backlog.append(frames)
        backlogBytes += size
        return true
    }

    /// The oldest waiting message, without removing it.
    var nextWaiting: [Frame]? { isCongested ? backlog[backlogHead] : nil }

    /// Removes the oldest waiting message (it was sent).
    func dropFirstWaiting() {
        guard isCongested else { return }
        backlogBytes -= backlog[backlogHead].reduce(0) { $0 + $1.count }
        backlog[backlogHead] = []
        backlogHead += 1
        if backlogHead == backlog.count {
            backlog.removeAll(keepingCapacity: false)
            backlogHead = 0
        } else if backlogHead > 1_024, backlogHead * 2 > backlog.count {
            backlog.removeFirst(backlogHead)
            backlogHead = 0
        }
    }

    /// Forgets every waiting message (the client has gone away).
    func clearBacklog() {
        backlog.removeAll()
        backlogHead = 0
        backlogBytes = 0
    }

    /// Takes one remembered-choice write from the bucket; false when the client is over
    /// its rate.
    func takeWriteToken(now: UInt64, perSecond: Int, burst: Int) -> Bool {
        if writeTokens < 0 { writeTokens = Double(burst) } else {
            let elapsed = Double(now &- writeRefilledAt) / 1e9
            writeTokens = min(Double(burst), writeTokens + elapsed * Double(perSecond))
        }
        writeRefilledAt = now
        guard writeTokens >= 1 else { return false }
        writeTokens -= 1
        return true
    }
}

/// The router's clients by identity. Entries with nothing open and nothing waiting are
/// swept in bulk once the table has doubled, so a stream of short-lived connections does
/// not grow it without bound, at an amortised O(1) per request.
///
/// Owned by the router thread.
struct ClientTable {
    private var entries: [PeerKey: ClientState] = [:]
    private var sweepAt = 1_024
    /// The clients with messages waiting (a small set, usually empty).
    private(set) var congested: [PeerKey: ClientState] = [:]

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

    /// Open requests over every client.
    var openCount: Int { entries.values.reduce(0) { $0 + $1.open.count } }

    mutating func markCongested(_ state: ClientState) { congested[PeerKey(identity: state.identity)] = state }
    mutating func markDrained(_ state: ClientState) { congested.removeValue(forKey: PeerKey(identity: state.identity)) }

    private mutating func sweep() {
        entries = entries.filter { !$0.value.open.isEmpty || $0.value.isCongested }
        sweepAt = max(1_024, entries.count * 2)
    }
}
