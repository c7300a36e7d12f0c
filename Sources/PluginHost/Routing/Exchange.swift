import Foundation
import IntentBus

/// Identifies a client's request: the client's socket identity plus its request id.
struct ClientKey: Hashable {
    let identity: Data
    let requestId: String

    // Hand-written for the hot path (three lookups per request, docs/performance.md):
    // `Data`'s own hash and == go through Foundation's generic paths; the raw bytes are
    // cheaper, and comparing the request id first rejects most mismatches early.
    func hash(into hasher: inout Hasher) {
        hasher.combine(requestId)
        identity.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: ClientKey, b: ClientKey) -> Bool {
        guard a.requestId == b.requestId, a.identity.count == b.identity.count else { return false }
        return a.identity.withUnsafeBytes { x in
            b.identity.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}

/// One client request the host holds until its final answer.
///
/// Owned by the router thread.
final class Exchange {
    /// The host's own id for this request (see `ExchangeTable`).
    let hostId: UInt64
    /// `hostId` as it travels on the plugin side: the request id frame of every message
    /// between host and plugin.
    let wireId: String
    let client: RoutingEnvelope
    let clientRequestId: String
    let intent: String
    /// The plugin the request was routed to.
    var pluginIndex: Int
    /// The timeout for each wait on the plugin.
    var timeout: UInt64
    /// Bumped whenever the deadline changes, so that stale timers do nothing.
    var generation: UInt64 = 0
    /// True once REQUEST went to the plugin; false while queued for a starting plugin.
    var delivered = false
    /// True while a PROMPT waits for the client's ANSWER.
    var awaitingClient = false
    /// The client's request header (parsed), or empty.
    var options: JSON
    /// Header and body waiting to be delivered (nil once sent).
    var pendingHeader: Frame?
    var pendingBody: Frame?
    /// A multi-phase flow (legacy, new style), or nil for the plain path.
    var flow: (any ExchangeFlow)?
    /// Flow-specific state (parameters collected so far, phase, …).
    var flowState: [String: JSON] = [:]
    /// Set while the client is asked which plugin to use (IntentRouter+Choice.swift);
    /// `pluginIndex` means nothing until it is cleared.
    var choosing: PluginChoiceStage?
    /// When the host took the request (monotonic ns), for the latency in `HostStats`.
    let startedAt = MonotonicClock.now()

    init(hostId: UInt64, client: RoutingEnvelope, clientRequestId: String, intent: String,
         pluginIndex: Int, timeout: UInt64, options: JSON) {
        self.hostId = hostId
        wireId = ExchangeTable.wireId(hostId)
        self.client = client
        self.clientRequestId = clientRequestId
        self.intent = intent
        self.pluginIndex = pluginIndex
        self.timeout = timeout
        self.options = options
    }

    var clientKey: ClientKey { ClientKey(identity: client.identity, requestId: clientRequestId) }
}

/// The open exchanges, by host id, without hashing.
///
/// A host id is the exchange's index in this table (low 32 bits) plus a serial number
/// (high 32 bits), so a lookup is an array index and a comparison, and a late answer to a
/// finished request (whose index may have been reused) does not match. Keying the
/// exchanges by a base-36 `String` id cost two String hashes and compares per lookup on
/// the hot path (docs/performance.md). Owned by the router thread.
struct ExchangeTable {
    private var entries: [Exchange?] = []
    private var free: [Int] = []
    private var serial: UInt64 = 0
    /// The number of open exchanges.
    private(set) var count = 0

    /// A fresh host id, for the exchange about to be inserted with it.
    mutating func nextId() -> UInt64 {
        serial = serial & 0xffff_ffff == 0xffff_ffff ? 1 : serial + 1
        let index = free.popLast() ?? entries.count
        if index == entries.count { entries.append(nil) }
        free.append(index)  // taken for real by `insert`
        return serial << 32 | UInt64(index)
    }

    /// Stores `exchange` under the id `nextId()` just returned.
    mutating func insert(_ exchange: Exchange) {
        let index = Int(truncatingIfNeeded: exchange.hostId & 0xffff_ffff)
        precondition(free.last == index && entries[index] == nil, "ExchangeTable.insert without nextId()")
        free.removeLast()
        entries[index] = exchange
        count += 1
    }

    /// The open exchange with this host id, or nil.
    subscript(id: UInt64) -> Exchange? {
        let index = Int(truncatingIfNeeded: id & 0xffff_ffff)
        guard index < entries.count, let exchange = entries[index], exchange.hostId == id else { return nil }
        return exchange
    }

    /// The open exchange with this plugin-side request id (base 36), or nil.
    subscript(wireId wireId: String) -> Exchange? {
        guard let id = ExchangeTable.hostId(wireId) else { return nil }
        return self[id]
    }

    private static let digits: StaticString = "0123456789abcdefghijklmnopqrstuvwxyz"

    /// `id` in base 36, lower case: the same text as `String(id, radix: 36)`, written
    /// directly (the generic conversion cost ~700 instructions per request,
    /// docs/performance.md). At most 13 characters, so it stays a small string.
    static func wireId(_ id: UInt64) -> String {
        String(unsafeUninitializedCapacity: 13) { buffer in
            var n = id, count = 0
            repeat {
                buffer[count] = digits.utf8Start[Int(n % 36)]
                n /= 36
                count += 1
            } while n > 0
            buffer[0..<count].reverse()
            return count
        }
    }

    /// The host id a base-36 request id names, or nil when it is not one of ours.
    static func hostId(_ wireId: String) -> UInt64? {
        var id: UInt64 = 0
        var count = 0
        for c in wireId.utf8 {
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = c - UInt8(ascii: "a") + 10
            default: return nil
            }
            let (times, o1) = id.multipliedReportingOverflow(by: 36)
            let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { return nil }
            id = sum
            count += 1
        }
        return count == 0 ? nil : id
    }

    /// Removes the exchange with this id; returns it, or nil when it was not open.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Exchange? {
        guard let exchange = self[id] else { return nil }
        let index = Int(truncatingIfNeeded: id & 0xffff_ffff)
        entries[index] = nil
        free.append(index)
        count -= 1
        return exchange
    }

    /// Every open exchange, oldest first.
    var all: [Exchange] { entries.compactMap { $0 }.sorted { $0.hostId >> 32 < $1.hostId >> 32 } }
}

/// Drives a request whose plugin speaks a multi-phase style (legacy resolve → confirm →
/// handle, or new-style perform with host-side parameter checks).
///
/// All calls happen on the router thread. A flow talks to the plugin and the client only
/// through the router's `FlowOperations`, which keep the one-final-answer rule.
protocol ExchangeFlow: AnyObject {
    /// The plugin is ready: send the first message.
    func start(_ exchange: Exchange, _ ops: any FlowOperations)
    /// The plugin sent REPLY, ERROR, PROMPT or PROGRESS for this exchange.
    func pluginMessage(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations)
    /// The client answered a PROMPT that the flow (or the plugin, through it) asked.
    func clientAnswer(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations)
}

/// What a flow may do. Implemented by the router.
protocol FlowOperations: AnyObject {
    /// Sends a message to the exchange's plugin (REQUEST with a phase, ANSWER, …) and
    /// restarts the plugin timeout.
    func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, body: JSON?)
    /// Sends a PROMPT to the client; the plugin timeout pauses until the answer.
    func promptClient(_ exchange: Exchange, prompt: JSON)
    /// Sends a PROGRESS update to the client.
    func progressToClient(_ exchange: Exchange, body: JSON)
    /// Ends the exchange with a REPLY.
    func finish(_ exchange: Exchange, header: JSON, body: JSON)
    /// Ends the exchange with an ERROR.
    func fail(_ exchange: Exchange, _ error: BusError)
    /// The manifest entry of the exchange's plugin.
    func pluginSpec(of exchange: Exchange) -> PluginSpec
    var logger: Logger { get }
}
