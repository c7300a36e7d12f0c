import Foundation
import IntentBusCore
import IntentBusZMQ

/// The relay lane: plain requests forwarded frame by frame, without the core's objects.
///
/// Most requests on a busy host are plain: one plugin claims the intent, the client sends
/// no header, and the plugin answers with a REPLY. For those the core's general path
/// (a `WireMessage`, an `Exchange`, `String` and `Data` keys, a heap timer, seven `Frame`
/// objects each way) cost about four times what libzmq itself spends per request
/// (docs/performance.md). The lane does the same routing on the received `zmq_msg_t`s:
/// an index lookup for the intent, one for the client, one for the request id; the
/// client's identity and request id frames are kept in a `MessageStore`; the deadline
/// goes into a first-in, first-out queue.
///
/// The lane only ever *takes* a REQUEST it can finish exactly as the core would, and
/// *ends* a request only with its plugin's well-formed REPLY. Everything else goes to
/// the core: a message the lane does not take is passed on unchanged, and any request of
/// the lane that the core must see (an ERROR, PROMPT or PROGRESS from the plugin, the
/// client's CANCEL or ANSWER, a reused request id, a deadline, a plugin's exit, a reload,
/// shutdown, a host intent) is first *promoted*: it becomes an ordinary `Exchange` under
/// the same host id, and from then on the core alone handles it. So every request still
/// has one owner and one final answer (RelayLane+Promotion.swift).
///
/// Set `INTENTBUS_RELAY_LANE=0` in the host's environment to route everything through
/// the core (for comparisons). Owned by the router thread, like the core.
final class RelayLane {
    /// The core outlives the lane (the shell owns both and drops the core last); unowned
    /// without the reference-count check, since the lane runs on every message.
    unowned(unsafe) let core: RouterCore
    /// The core's clock (the shell's monotonic clock; a set clock in unit tests).
    private unowned(unsafe) let effects: any RouterEffects
    private let frontend: ZMQSocket
    private let backend: ZMQSocket
    var routes = RelayRoutes()
    var deadlines = RelayDeadlines()
    var clients = RelayClients()
    var entries: [RelayEntry] = []
    var freeEntries: [Int32] = []
    /// The open lane requests by (client, request id).
    var openIndex = ByteIndex()
    let store = MessageStore(parts: 2)
    private var serial: UInt32 = 0
    /// The number of open lane requests.
    private(set) var count = 0
    /// By slot index: the REPLY header the lane forwards without a look (the one the core
    /// last checked for that plugin, `PluginSlot.goodReplyHeader`, when it names no donation).
    private var goodHeaders: [[UInt8]?] = []

    init(core: RouterCore, frontend: ZMQSocket, backend: ZMQSocket) {
        self.core = core
        effects = core.effects
        self.frontend = frontend
        self.backend = backend
    }

    // MARK: - Client → plugin

    /// Takes a client's message if it is a plain REQUEST the lane can route now, and
    /// forwards it to its plugin. False: the message is untouched, for the core.
    /// `backlogged`: some client is not reading (the shell keeps its answers), so that
    /// order and `busy` answers stay the core's business.
    func forward(_ m: RawMessage, backlogged: Bool) -> Bool {
        // Identity, a REQ peer's empty delimiter, then IB1, kind, id, intent, header, body.
        let base = m.count == 8 && m.size(1) == 0 ? 2 : 1
        guard m.count == base + 6, !m.isTruncated, m.frame(base, equals: "IB1"),
              m.frame(base + 1, equals: "REQUEST") else { return false }
        guard !backlogged, !core.draining, !core.stopping, !core.clientKeysRequired else { return false }
        if routes.epochMismatch(core) { rebuild() }
        let requestId = m.bytes(base + 2)
        guard requestId.count > 0, requestId.count <= WireProtocol.maxNameLength, requestId.isASCII,
              // 1 KiB or more is counted while libzmq holds it (HeldBytes): the core's path.
              m.size(base + 4) + m.size(base + 5) < HeldBytes.countedFrameBytes,
              let r = routes.find(m.bytes(base + 3)) else { return false }
        // No header, or only a timeout: anything else (a plugin, a choice, a credential…) is the core's.
        var timeout = routes.routes[r].timeout
        var queue = routes.routes[r].queue
        if m.size(base + 4) > 0 {
            guard let asked = Self.headerTimeout(m.bytes(base + 4)),
                  let q = deadlines.queue(for: asked, limit: 16) else { return false }
            (timeout, queue) = (asked, q)
        }
        let slotIndex = routes.routes[r].slot
        let slot = core.slots[slotIndex]
        guard slot.takesRequests, !slot.disabledAtRunTime, slot.inFlight + slot.waiting.count < slot.spec.maxInFlight,
              count + core.exchanges.count < routes.maxOpenExchanges,
              let peer = routes.peers[slotIndex] else { return false }
        let identity = m.bytes(0)
        let identityHash = ByteHash.hash(identity)
        let keyHash = ByteHash.hash(requestId, identityHash)
        let known = clients.find(identity, hash: identityHash)
        if let known {
            // A reused id is the core's to refuse (after promotion).
            if findOpen(keyHash, client: known, requestId: requestId) != nil { return false }
            if Int(clients.open[Int(known)]) >= routes.maxOpenPerClient { return false }
        }
        if core.exchanges.count > 0, let state = core.clients.existing(Data(identity)) {
            // The core has requests too: its ids and its count for this client matter.
            let open = state.open.count + Int(known.map { clients.open[Int($0)] } ?? 0)
            if open >= routes.maxOpenPerClient || state.open[String(decoding: requestId, as: UTF8.self)] != nil {
                return false
            }
        }
        // The routing id first: a full or vanished plugin is found here, before anything
        // is queued, and the core then answers as it always does (busy, unavailable).
        guard peer.withUnsafeBytes({ backend.sendBytes($0, more: true) }) == .sent else { return false }
        let e = allocate()
        let id = UInt64(entries[e].serial) << 32 | ExchangeTable.laneBit | UInt64(e)
        _ = m.send(base, on: backend, more: true)      // IB1
        _ = m.send(base + 1, on: backend, more: true)  // REQUEST
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            let n = ExchangeTable.writeWireId(id, into: buffer.baseAddress!)
            _ = backend.sendBytes(UnsafeRawBufferPointer(start: buffer.baseAddress, count: n), more: true)
        }
        _ = m.send(base + 3, on: backend, more: true)  // intent
        _ = backend.sendBytes(UnsafeRawBufferPointer(start: nil, count: 0), more: true)  // the plugin's header: empty
        _ = m.send(base + 5, on: backend, more: false) // body
        let client = known ?? clients.findOrAdd(identity, hash: identityHash)
        m.move(0, to: store, slot: e, part: 0)
        m.move(base + 2, to: store, slot: e, part: 1)
        let now = effects.now()
        let deadline = now &+ timeout
        entries[e].slot = Int32(slotIndex)
        entries[e].route = Int32(r)
        entries[e].client = client
        entries[e].isRequestReply = base == 2
        entries[e].startedAt = now
        entries[e].deadline = deadline < now ? UInt64.max : deadline
        entries[e].keyHash = keyHash
        entries[e].timeout = timeout
        openIndex.insert(keyHash, Int32(e))
        clients.opened(client)
        count += 1
        slot.inFlight += 1
        core.noteBusy(slot)
        deadlines.push(queue, deadline: entries[e].deadline, id: id)
        return true
    }

    /// The timeout a client's header asks for when the header is exactly
    /// `{"timeout_ms":N}`, as the SDKs write it, with N from 1 to 24 hours; nil for any
    /// other header, which the core reads (and checks: RequestHeaderCheck).
    static func headerTimeout(_ header: UnsafeRawBufferPointer) -> UInt64? {
        let prefix: StaticString = "{\"timeout_ms\":"
        let n = prefix.utf8CodeUnitCount
        guard header.count > n + 1, header.count <= n + 9, header.starts(with: prefix),
              header[header.count - 1] == UInt8(ascii: "}"), header[n] != UInt8(ascii: "0") else { return nil }
        var ms: Int64 = 0
        for b in header[n..<(header.count - 1)] {
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            ms = ms * 10 + Int64(b - UInt8(ascii: "0"))
        }
        guard ms >= 1, ms <= RequestHeaderCheck.maximumTimeoutMs else { return nil }
        return UInt64(ms) * 1_000_000
    }

    // MARK: - Plugin → client

    /// Takes a plugin's message if it is the well-formed REPLY to an open lane request,
    /// and forwards it to the client. False: untouched, for the core (after `beforeCore`).
    func reply(_ m: RawMessage, backlogged: Bool) -> Bool {
        guard m.count == 7, !m.isTruncated, m.frame(1, equals: "IB1"), m.frame(2, equals: "REPLY"),
              let e = openEntry(named: m.bytes(3)) else { return false }
        let entry = entries[e]
        let slot = Int(entry.slot)
        // From the plugin it was sent to, and nothing for the core to look at.
        guard let peer = routes.peers[slot], peer.withUnsafeBytes({ $0.sameBytes(m.bytes(0)) }) else { return false }
        guard !backlogged, m.size(5) + m.size(6) < HeldBytes.countedFrameBytes,
              routes.routes[Int(entry.route)].bytes.withUnsafeBytes({ $0.sameBytes(m.bytes(4)) }),
              isGoodHeader(m.bytes(5), slot: slot) else { return false }  // empty: the core names the plugin
        let plugin = core.slots[slot]
        let now = effects.now()
        plugin.lastHeard = now
        switch store.send(e, 0, on: frontend, more: true) {
        case .sent:
            if entry.isRequestReply { _ = frontend.sendBytes(UnsafeRawBufferPointer(start: nil, count: 0), more: true) }
            _ = m.send(1, on: frontend, more: true)              // IB1
            _ = m.send(2, on: frontend, more: true)              // REPLY
            _ = store.send(e, 1, on: frontend, more: true)       // the client's request id
            _ = m.send(4, on: frontend, more: true)              // intent
            _ = m.send(5, on: frontend, more: true)              // header
            _ = m.send(6, on: frontend, more: false)             // body
        case .full:
            return false  // the core keeps it for the client (promoted by `beforeCore`)
        case .failed:
            core.logger.info("the client has gone away; its REPLY was dropped")
        }
        plugin.inFlight -= 1
        release(e)
        core.stats?.served(plugin: slot, startedAt: entry.startedAt, now: now)
        return true
    }

    // MARK: - Entries

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

    private func allocate() -> Int {
        serial = serial == UInt32.max ? 1 : serial + 1
        let e: Int
        if let reused = freeEntries.popLast() { e = Int(reused) } else {
            e = entries.count
            entries.append(RelayEntry())
            store.reserve(upTo: e)
        }
        entries[e].serial = serial
        return e
    }

    /// Frees an entry: its index, its client's count, its stored frames.
    func release(_ e: Int) {
        openIndex.remove(entries[e].keyHash, Int32(e))
        clients.closed(entries[e].client)
        store.release(e, 0)
        store.release(e, 1)
        entries[e].serial = 0
        freeEntries.append(Int32(e))
        count -= 1
        deadlines.compact(open: count) { openEntry($0) != nil }
    }

    /// Whether `header` is the one the core last checked for this plugin.
    private func isGoodHeader(_ header: UnsafeRawBufferPointer, slot: Int) -> Bool {
        if slot < goodHeaders.count, let good = goodHeaders[slot], good.withUnsafeBytes({ $0.sameBytes(header) }) {
            return true
        }
        // Adopt the core's, once it has checked one, unless it may carry a donation.
        guard let checked = core.slots[slot].goodReplyHeader, checked.count == header.count,
              checked.withUnsafeBytes({ $0.sameBytes(header) }),
              !ShortcutCenter.mentionsDonation(header) else { return false }
        if goodHeaders.count < core.slots.count { goodHeaders += Array(repeating: nil, count: core.slots.count - goodHeaders.count) }
        goodHeaders[slot] = [UInt8](header)
        return true
    }

    /// The routes and peers for the core's current epoch; open requests are promoted
    /// first, since their routes and peers may have changed.
    private func rebuild() {
        promoteAll()
        deadlines.removeAll()
        goodHeaders = []
        routes = RelayRoutes(core: core, deadlines: &deadlines)
        routes.epoch = core.routingEpoch
    }
}

extension UnsafeRawBufferPointer {
    /// Whether every byte is ASCII (ids and intents in practice; anything else goes the
    /// general path, which validates UTF-8).
    @inline(__always) var isASCII: Bool {
        for b in self where b >= 0x80 { return false }
        return true
    }
}

extension UnsafeRawBufferPointer {
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
