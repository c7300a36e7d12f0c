import Foundation
import IntentBusCore
import IntentBusZMQ

/// The relay lane's requests: the core's exchange store in compact form, beside its
/// `ExchangeTable`, for plain requests forwarded frame by frame.
///
/// Most requests on a busy host are plain: one plugin claims the intent, the client sends
/// no header, and the plugin answers with a REPLY. For those the core's general path
/// (a `WireMessage`, an `Exchange`, `String` and `Data` keys, a heap timer, seven `Frame`
/// objects each way) cost about four times what libzmq itself spends per request
/// (docs/performance.md). Here a request is an entry: an index lookup for the intent, one
/// for the client, one for the request id; the client's identity and request id frames
/// kept in a `MessageStore`; the deadline in a first-in, first-out queue.
///
/// This type owns the lane's state and runs its paths; the core decides. It admits a
/// request into the lane with the same rules as on its general path (`Admission`), sends
/// through its effects (`RawForward`), counts it in its plugin's tables, and takes an entry
/// into its `ExchangeTable` (a promotion) whenever it must see the request as an
/// `Exchange`. Owned by the core (`RouterCore.relayLane`), on the router thread.
///
/// The lane reaches the core through `LaneCore` (Relay/LaneCore.swift), its narrow view of
/// it; the lane's own paths are in RelayLane+Dispatch.swift (the REQUEST in, the REPLY
/// out) and RelayLane+Promotion.swift (handing a request to the general path).
final class RelayLane {
    var routes = RelayRoutes()
    var deadlines = RelayDeadlines()
    var clients = RelayClients()
    private(set) var entries: [RelayEntry] = []
    private var freeEntries: [Int32] = []
    /// The open lane requests by (client, request id).
    private var openIndex = ByteIndex()
    let store = MessageStore(parts: 2)
    /// A checked (new-style) request's body, under its entry's index, until it ends: its
    /// extension sees it when it succeeds or is promoted (RelayLane+Checked.swift).
    let bodies = MessageStore(parts: 1)
    /// By entry index: what the route's check read of a checked request's body
    /// (`LaneRequestCheck.passes`), until the request ends; the check gets it back at the
    /// REPLY or the promotion (RelayLane+Checked.swift).
    var passes: [LanePass?] = []
    /// By slot index: the REPLY header of a checked request the lane forwards as is (one
    /// `goodHeaders` also passes, that names a status other than failure).
    var checkedHeaders: [[UInt8]?] = []
    private var serial: UInt32 = 0
    /// The number of open lane requests.
    private(set) var count = 0
    /// The header and body bytes of the open lane requests (the core's byte limits count them).
    private(set) var bytes = 0
    /// By slot index: the REPLY header the lane forwards without a look (one the core
    /// checked for that plugin, `PluginSlot.goodReplyHeader`, that no extension must see).
    private var goodHeaders: [[UInt8]?] = []
    /// By grant name: the delivery header of a keyed (CURVE) client's requests,
    /// `{"client":NAME}` (RouterCore+Lane.swift `keyedDeliveryHeader`); one per name in
    /// `host.clients`.
    var clientHeaders: [String: [UInt8]] = [:]
    /// The client REQUEST headers the lane carries, each read once (LaneHeaders.swift).
    var headers = LaneHeaders()

    init() {}

    // MARK: - Entries

    /// An entry and its lane id for a request about to be forwarded; `unreserve` gives it
    /// back when the forward fails, `open` fills it once it went out.
    func reserve() -> (entry: Int, id: UInt64) {
        serial = serial == UInt32.max ? 1 : serial + 1
        let e: Int
        if let reused = freeEntries.popLast() { e = Int(reused) } else {
            e = entries.count
            entries.append(RelayEntry())
            store.reserve(upTo: e)
        }
        entries[e].serial = serial
        return (e, UInt64(serial) << 32 | ExchangeTable.laneBit | UInt64(e))
    }

    func unreserve(_ e: Int) {
        entries[e].serial = 0
        freeEntries.append(Int32(e))
    }

    /// Records a forwarded request: the client's identity (frame 0) and request id (frame
    /// `base + 2`) move into the store. `known`: the client's entry, when the caller found it.
    func open(_ e: Int, _ m: RawMessage, base: Int, entry: RelayEntry, client known: Int32?, identityHash: UInt64) {
        let client = known ?? clients.findOrAdd(m.bytes(0), hash: identityHash)
        m.move(0, to: store, slot: e, part: 0)
        m.move(base + 2, to: store, slot: e, part: 1)
        let serial = entries[e].serial
        entries[e] = entry
        entries[e].serial = serial
        entries[e].client = client
        openIndex.insert(entry.keyHash, Int32(e))
        if entry.header >= 0 { headers.opened(Int(entry.header)) }
        clients.opened(client, bytes: Int(entry.size))
        count += 1
        bytes += Int(entry.size)
        deadlines.push(Int(entry.queue), deadline: entry.deadline, id: id(e))
    }

    /// Frees an entry: its index, its client's count, its stored frames.
    func release(_ e: Int) {
        openIndex.remove(entries[e].keyHash, Int32(e))
        clients.closed(entries[e].client, bytes: Int(entries[e].size))
        store.release(e, 0)
        store.release(e, 1)
        if entries[e].checked { forget(e) }
        if entries[e].header >= 0 { headers.closed(Int(entries[e].header)) }
        entries[e].serial = 0
        freeEntries.append(Int32(e))
        count -= 1
        bytes -= Int(entries[e].size)
        deadlines.compact(open: count) { openEntry($0) != nil }
    }

    @inline(__always) func id(_ e: Int) -> UInt64 {
        UInt64(entries[e].serial) << 32 | ExchangeTable.laneBit | UInt64(e)
    }

    /// The open lane request a plugin-side request id names, or nil.
    @inline(__always) func openEntry(named wireId: UnsafeRawBufferPointer) -> Int? {
        guard let id = ExchangeTable.hostId(bytes: wireId), id & ExchangeTable.laneBit != 0 else { return nil }
        return openEntry(id)
    }

    @inline(__always) func openEntry(_ id: UInt64) -> Int? {
        let e = Int(id & (ExchangeTable.laneBit - 1))
        guard id & ExchangeTable.laneBit != 0, e < entries.count, entries[e].serial != 0,
              entries[e].serial == UInt32(truncatingIfNeeded: id >> 32) else { return nil }
        return e
    }

    @inline(__always) func findOpen(_ keyHash: UInt64, client: Int32, requestId: UnsafeRawBufferPointer) -> Int? {
        openIndex.find(keyHash) { e in
            entries[Int(e)].client == client && store.bytes(Int(e), 1).sameBytes(requestId)
        }.map(Int.init)
    }

    /// The open requests, `body(client identity, slot index)` for each (ib.status counts
    /// them without taking them out of the lane).
    func forEachOpen(_ body: (UnsafeRawBufferPointer, Int) -> Void) {
        guard count > 0 else { return }
        for e in entries.indices where entries[e].serial != 0 { body(store.bytes(e, 0), Int(entries[e].slot)) }
    }

    /// A client's open lane requests and their bytes (for the core's per-client limits).
    func open(client identity: UnsafeRawBufferPointer, hash: UInt64) -> (count: Int, bytes: Int) {
        guard count > 0, let c = clients.find(identity, hash: hash) else { return (0, 0) }
        return (Int(clients.open[Int(c)]), Int(clients.bytes[Int(c)]))
    }

    // MARK: - Reply headers

    /// Whether `header` is the one adopted for this plugin.
    @inline(__always) func isGoodHeader(_ header: UnsafeRawBufferPointer, slot: Int) -> Bool {
        guard slot < goodHeaders.count, let good = goodHeaders[slot] else { return false }
        return good.withUnsafeBytes { $0.sameBytes(header) }
    }

    /// Forwards REPLYs with `header` from this plugin without a look from now on.
    func adoptGoodHeader(_ header: UnsafeRawBufferPointer, slot: Int, slotCount: Int) {
        if goodHeaders.count < slotCount { goodHeaders += Array(repeating: nil, count: slotCount - goodHeaders.count) }
        goodHeaders[slot] = [UInt8](header)
    }

    /// New routes for the core's new routing epoch (a HELLO, a DISCONNECT, an exit, a
    /// reload, a plugin disabled). An open request stays in the lane when its intent still
    /// takes the lane to the same plugin, with the same timeout, over the same connection:
    /// nothing the general path would decide for it has changed. Any other is promoted
    /// first, under the routes it was admitted with.
    func rebuild<Core: LaneCore>(_ core: Core) {
        let (intents, peers) = core.laneRoutes()
        if count == 0 { deadlines.removeAll() }
        let fresh = RelayRoutes(epoch: core.routingEpoch, intents: intents, peers: peers, deadlines: &deadlines)
        var kept: [(entry: Int, route: Int32)] = []
        if count > 0 {
            for e in entries.indices where entries[e].serial != 0 {
                let old = routes.routes[Int(entries[e].route)], slot = Int(entries[e].slot)
                if let r = old.bytes.withUnsafeBytes({ fresh.find($0) }), fresh.routes[r].slot == slot,
                   fresh.routes[r].timeout == old.timeout, (fresh.routes[r].check == nil) == (old.check == nil),
                   slot < peers.count, let peer = peers[slot],
                   slot < routes.peers.count, routes.peers[slot] == peer {
                    kept.append((e, Int32(r)))
                } else {
                    promote(e, core)
                }
            }
        }
        goodHeaders = []
        checkedHeaders = []
        headers.routesChanged()
        routes = fresh
        for (e, r) in kept { entries[e].route = r }
    }

    /// The index in `headers` of a client's REQUEST header the lane carries, or nil for
    /// the general path. A keyed (CURVE) client's header may hold only `timeout_ms`: its
    /// name is its grant's, which the general path checks against any it claims.
    func clientHeaderIndex(_ bytes: UnsafeRawBufferPointer, keyed: Bool) -> Int? {
        guard let h = headers.find(bytes) else { return nil }
        if keyed, headers.headers[h].options.objectValue?.keys.contains(where: { $0 != "timeout_ms" }) == true { return nil }
        return h
    }

    /// The earliest deadline of an open lane request, for the poll timeout.
    var nextDeadline: UInt64? {
        guard count > 0 else { return nil }
        return deadlines.next { openEntry($0) != nil }
    }

    /// The open requests whose deadline has passed.
    func due(now: UInt64) -> [Int] {
        guard count > 0 else { return [] }
        return deadlines.popDue(now: now).compactMap { openEntry($0) }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether every byte is ASCII (ids and intents in practice; anything else goes the
    /// general path, which validates UTF-8).
    @inline(__always) var isASCII: Bool {
        for b in self where b >= 0x80 { return false }
        return true
    }

    /// Whether the bytes start with `prefix`.
    func starts(with prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        return count >= n && (n == 0 || memcmp(baseAddress!, prefix.utf8Start, n) == 0)
    }
}

extension PluginSlot {
    /// Connected and ready for requests (`identity != nil`, without copying the identity).
    var takesRequests: Bool {
        switch state {
        case .ready: true
        case .remote(.some): true
        default: false
        }
    }
}
