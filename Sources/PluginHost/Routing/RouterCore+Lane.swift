import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// The one entry for what the sockets deliver, and the relay lane's requests: which
/// routes may take the fast path, admitting a request into the lane (the same `Admission`
/// as the general path), its REPLY, and promotion into the `ExchangeTable`. The core alone
/// decides and writes its tables; the shell alone writes sockets (`RawForward`).
extension RouterCore {
    /// A message from one side: to the relay lane when it is a plain REQUEST or a REPLY
    /// the lane can finish exactly as the general path would; else, after any lane
    /// request the message concerns has been promoted, to the general path. True when the
    /// lane took it (for tests; the shell does not need to know).
    @discardableResult
    func receive(_ side: RouterSide, _ m: RawMessage) -> Bool {
        assertConfined()
        if let lane = relayLane {
            switch side {
            case .clients:
                if laneRequest(m, lane) { return true }
                promoteConcerned(client: m, lane)
            case .plugins:
                if laneReply(m, lane) { return true }
                promoteConcerned(plugin: m, lane)
            }
        }
        switch side {
        case .clients: clientFrames(m.takeFrames())
        case .plugins: pluginFrames(m.takeFrames())
        }
        return false
    }

    /// Turns the relay lane on (the shell does, unless `INTENTBUS_RELAY_LANE=0`).
    func enableRelayLane() { relayLane = RelayLane() }

    // MARK: - Which routes

    /// The plugin and timeout of a request for `intent` when nothing in the request itself
    /// can change how it is routed, admitted or delivered, so that it may take the lane;
    /// nil when some request for it needs the general path. Built from the routing and
    /// admission functions themselves: one claimant and no disabled one (`choosePlugin`
    /// has nothing to choose), no restriction (`isRestricted`), the plain style with no
    /// extension asking to see every request, and none of the per-request work of
    /// instances, idempotent replay, on-demand stop or Majordomo workers.
    func laneRoute(_ intent: String, _ claimants: [Int]) -> (slot: Int, timeout: UInt64)? {
        guard claimants.count == 1, disabledClaims[intent] == nil, !intent.hasPrefix("ib."),
              hostIntents[intent] == nil else { return nil }
        let slot = slots[claimants[0]]
        let spec = slot.spec
        guard spec.enabled, !slot.retired, !isRestricted(slot, intent), slot.style(for: intent) == .plain,
              !spec.mdpWorker, slot.primaryIndex == nil, slot.instanceSlots.isEmpty,
              spec.idempotentIntents.isEmpty, spec.lifecycle.idleTimeout == nil,
              !extensions.contains(where: { $0.needs.contains(.everyRequest) }) else { return nil }
        return (slot.index, requestTimeout(slot, options: .object([:])))
    }

    /// The lane's routes for the current epoch, once every open lane request is promoted
    /// (its route or peer may have changed).
    private func rebuildLane(_ lane: RelayLane) {
        promoteAll()
        var peers = [[UInt8]?](repeating: nil, count: slots.count)
        for (identity, slot) in identities where slot < peers.count { peers[slot] = [UInt8](identity) }
        let intents = routes.sorted { $0.key < $1.key }.compactMap { intent, claimants in
            laneRoute(intent, claimants).map { (intent: intent, slot: $0.slot, timeout: $0.timeout) }
        }
        lane.reset(epoch: routingEpoch, intents: intents, peers: peers)
    }

    // MARK: - Client → plugin

    /// A keyed (CURVE) client's request may take the lane once the general path has bound
    /// its connection and read its grant (at its first message), when this message comes
    /// with that same User-Id, the grant allows the intent and has no `rate` to count: the
    /// checks the general path makes (RouterCore+Rights.swift, +ConnectionBinding.swift),
    /// whose answers are then the same. Returns the delivery header the core would write
    /// (`{"client":NAME}`, RouterCore+Requests.swift `pluginHeader`); nil leaves the request
    /// to the general path, which checks and answers it as always.
    private func keyedDeliveryHeader(_ m: RawMessage, intent: UnsafeRawBufferPointer, state: ClientState?,
                                     _ lane: RelayLane) -> [UInt8]? {
        guard let state, state.bound, !state.gone, let grant = state.grant, grant.ratePerSecond == nil,
              state.user != nil, state.user == m.property(1, "User-Id"),
              grant.allows(String(decoding: intent, as: UTF8.self)) else { return nil }
        if let known = lane.clientHeaders[grant.name] { return known }
        let header = [UInt8](JSON.object(["client": .string(grant.name)]).canonicalData)
        lane.clientHeaders[grant.name] = header
        return header
    }

    /// Takes a plain REQUEST into the lane and forwards it: false leaves it untouched, for
    /// the general path (which then answers it as it always does).
    private func laneRequest(_ m: RawMessage, _ lane: RelayLane) -> Bool {
        // Identity, a REQ peer's empty delimiter, then IB1, kind, id, intent, header, body.
        let base = m.count == 8 && m.size(1) == 0 ? 2 : 1
        guard m.count == base + 6, !m.isTruncated, m.frame(base, equals: "IB1"),
              m.frame(base + 1, equals: "REQUEST") else { return false }
        // A client not reading keeps its order and its `busy` answers on the general path.
        guard !effects.anyClientBacklog else { return false }
        if lane.routes.epoch != routingEpoch { rebuildLane(lane) }
        let requestId = m.bytes(base + 2)
        let size = m.size(base + 4) + m.size(base + 5)
        // 1 KiB or more is counted while libzmq holds it (HeldBytes): the general path.
        guard requestId.count <= WireProtocol.maxNameLength, requestId.isASCII, size < HeldBytes.countedFrameBytes,
              let r = lane.routes.find(m.bytes(base + 3)) else { return false }
        // Fields one by one, not a copy of the route (its String and array would be retained).
        let slotIndex = lane.routes.routes[r].slot
        // No header, or only a timeout: anything else (a plugin, a choice, a credential…) is the general path's.
        var (timeout, queue) = (lane.routes.routes[r].timeout, lane.routes.routes[r].queue)
        if m.size(base + 4) > 0 {
            guard let asked = RelayLane.headerTimeout(m.bytes(base + 4)),
                  let q = lane.deadlines.queue(for: asked, limit: 16) else { return false }
            (timeout, queue) = (asked, q)
        }
        let slot = slots[slotIndex]
        guard slot.takesRequests, let peer = lane.routes.peers[slotIndex] else { return false }
        let identity = m.bytes(0)
        let identityHash = ByteHash.hash(identity)
        let keyHash = ByteHash.hash(requestId, identityHash)
        // A reused id is the general path's to refuse (after promotion).
        let known = lane.count > 0 ? lane.clients.find(identity, hash: identityHash) : nil
        if let known, lane.findOpen(keyHash, client: known, requestId: requestId) != nil { return false }
        let coreState = book.count > 0 || clientKeysRequired ? book.clients.existing(Data(identity)) : nil
        if let coreState, coreState.open[String(decoding: requestId, as: UTF8.self)] != nil { return false }
        // A keyed (CURVE) client's request carries its name to the plugin, as the core's does.
        var deliveryHeader: [UInt8] = []
        if clientKeysRequired {
            guard let header = keyedDeliveryHeader(m, intent: m.bytes(base + 3), state: coreState, lane) else { return false }
            deliveryHeader = header
        }
        let mine = known.map { (count: Int(lane.clients.open[Int($0)]), bytes: Int(lane.clients.bytes[Int($0)])) } ?? (count: 0, bytes: 0)
        let facts = RequestFacts(size: size, hasId: requestId.count > 0, shuttingDown: draining || stopping,
                                 clientBacklog: 0, clientOpen: mine.count + (coreState?.open.count ?? 0),
                                 hostOpen: book.count + lane.count,
                                 clientBytes: mine.bytes + (coreState?.openBytes ?? 0), hostBytes: book.openBytes + lane.bytes)
        guard admission.problem(facts) == nil, capacityProblem(slot) == nil else { return false }
        let (e, id) = lane.reserve()
        let sent = peer.withUnsafeBytes { peerBytes in
            deliveryHeader.withUnsafeBytes { headerBytes in
                var forward = RawForward(to: .plugins)
                forward.append(.bytes(peerBytes))
                forward.append(.received(base))       // IB1
                forward.append(.received(base + 1))   // REQUEST
                forward.append(.wireId(id))
                forward.append(.received(base + 3))   // intent
                // The plugin's header: empty, or a keyed client's name.
                forward.append(headerBytes.isEmpty ? .empty : .bytes(headerBytes))
                forward.append(.received(base + 5))   // body
                // A full or vanished plugin is found at the routing id, before anything is queued.
                if case .sent = effects.forwardRaw(forward, from: m, store: lane.store) { return true }
                return false
            }
        }
        guard sent else {
            lane.unreserve(e)
            return false
        }
        let now = effects.now()
        let deadline = now &+ timeout
        lane.open(e, m, base: base, entry: RelayEntry(
            slot: Int32(slotIndex), route: Int32(r), isRequestReply: base == 2, startedAt: now,
            deadline: deadline < now ? UInt64.max : deadline, keyHash: keyHash, timeout: timeout,
            queue: Int32(queue), size: Int32(size)), client: known, identityHash: identityHash)
        slot.inFlight += 1
        noteBusy(slot)
        return true
    }

    // MARK: - Plugin → client

    /// Ends a lane request with its plugin's well-formed REPLY, forwarded to the client:
    /// false leaves the message untouched, for the general path.
    private func laneReply(_ m: RawMessage, _ lane: RelayLane) -> Bool {
        guard m.count == 7, !m.isTruncated, m.frame(1, equals: "IB1"), m.frame(2, equals: "REPLY"),
              let e = lane.openEntry(named: m.bytes(3)) else { return false }
        let entry = lane.entries[e]
        let slotIndex = Int(entry.slot)
        // From the plugin it was sent to, and nothing for the general path to look at.
        guard let peer = lane.routes.peers[slotIndex], peer.withUnsafeBytes({ $0.sameBytes(m.bytes(0)) }),
              !effects.anyClientBacklog, m.size(5) + m.size(6) < HeldBytes.countedFrameBytes,
              lane.routes.routes[Int(entry.route)].bytes.withUnsafeBytes({ $0.sameBytes(m.bytes(4)) }),
              isGoodLaneHeader(m.bytes(5), slot: slotIndex, lane) else { return false }  // empty: the core names the plugin
        let plugin = slots[slotIndex]
        let now = effects.now()
        plugin.lastHeard = now
        var forward = RawForward(to: .clients)
        forward.append(.stored(e, part: 0))          // the client's identity
        if entry.isRequestReply { forward.append(.empty) }
        forward.append(.received(1))                 // IB1
        forward.append(.received(2))                 // REPLY
        forward.append(.stored(e, part: 1))          // the client's request id
        forward.append(.received(4))                 // intent
        forward.append(.received(5))                 // header
        forward.append(.received(6))                 // body
        switch effects.forwardRaw(forward, from: m, store: lane.store) {
        case .sent: break
        case .full: return false  // the general path keeps it for the client (promoted first)
        case .failed: logger.info("the client has gone away; its REPLY was dropped")
        }
        plugin.inFlight -= 1
        lane.release(e)
        stats?.served(plugin: slotIndex, startedAt: entry.startedAt, now: now)
        return true
    }

    /// Whether a REPLY header may pass without a look: the one the core last checked for
    /// this plugin, once no extension asks to see replies with it (a donation, say).
    private func isGoodLaneHeader(_ header: UnsafeRawBufferPointer, slot: Int, _ lane: RelayLane) -> Bool {
        if lane.isGoodHeader(header, slot: slot) { return true }
        guard let checked = slots[slot].goodReplyHeader, checked.count == header.count,
              checked.withUnsafeBytes({ $0.sameBytes(header) }),
              !extensions.contains(where: { $0.needs.contains(.everyPlainReply) || $0.needsToSee(replyHeader: header) })
        else { return false }
        lane.adoptGoodHeader(header, slot: slot, slotCount: slots.count)
        return true
    }
}
