import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// The lane's two fast paths: a plain REQUEST into the lane and out to its plugin, and
/// that plugin's REPLY back to the client. Each either finishes the message exactly as the
/// general path would, or leaves it untouched for the general path (false). The rules are
/// the core's (`LaneCore.admits`, the routes it computed); the sends are `RawForward`s the
/// shell carries out.
extension RelayLane {
    // MARK: - Client → plugin

    /// Takes a plain REQUEST into the lane and forwards it: false leaves it untouched, for
    /// the general path (which then answers it as it always does).
    func takeRequest<Core: LaneCore>(_ m: RawMessage, _ core: Core) -> Bool {
        // Identity, a REQ peer's empty delimiter, then IB1, kind, id, intent, header, body.
        let base = m.count == 8 && m.size(1) == 0 ? 2 : 1
        guard m.count == base + 6, !m.isTruncated, m.frame(base, equals: "IB1"),
              m.frame(base + 1, equals: "REQUEST") else { return false }
        let effects = core.effects
        // A client not reading keeps its order and its `busy` answers on the general path.
        guard !effects.anyClientBacklog else { return false }
        if routes.epoch != core.routingEpoch { rebuild(core) }
        let requestId = m.bytes(base + 2)
        let size = m.size(base + 4) + m.size(base + 5)
        // 1 KiB or more is counted while libzmq holds it (HeldBytes): the general path.
        guard requestId.count <= WireProtocol.maxNameLength, requestId.isASCII, size < HeldBytes.countedFrameBytes,
              let r = routes.findInPlace(m.bytes(base + 3)) else { return false }
        // Fields one by one, not a copy of the route (its String and array would be retained).
        let slotIndex = routes.routes[r].slot
        // No header, or one the lane carries (LaneHeaders: a timeout, a client's name, a
        // credential, a locale); anything else (a plugin, a choice, a context…) is the general path's.
        var (timeout, queue) = (routes.routes[r].timeout, routes.routes[r].queue)
        var header: Int?
        if m.size(base + 4) > 0 {
            // A keyed (CURVE) client's header is the general path's to read against its grant.
            guard let h = clientHeaderIndex(m.bytes(base + 4), keyed: core.clientKeysRequired) else { return false }
            if let asked = headers.headers[h].timeout {
                guard let q = deadlines.queue(for: asked, limit: 16) else { return false }
                (timeout, queue) = (asked, q)
            }
            header = h
        }
        let slot = core.slots[slotIndex]
        guard slot.takesRequests, let peer = routes.peers[slotIndex] else { return false }
        // Another style (new): only a body its extension's check passes unchanged.
        let check = routes.routes[r].check
        var pass: LanePass?
        if let check {
            guard let passed = check.passes(body: m.bytes(base + 5)) else { return false }
            pass = passed
        }
        let identity = m.bytes(0)
        let identityHash = ByteHash.hash(identity)
        let keyHash = ByteHash.hash(requestId, identityHash)
        // A reused id is the general path's to refuse (after promotion).
        let known = count > 0 ? clients.find(identity, hash: identityHash) : nil
        if let known, findOpen(keyHash, client: known, requestId: requestId) != nil { return false }
        let coreState = core.coreClient(identity)
        if let coreState, coreState.open[String(decoding: requestId, as: UTF8.self)] != nil { return false }
        // A keyed (CURVE) client's request carries its name to the plugin, as the core's does.
        var deliveryHeader: [UInt8] = []
        if let check {
            if let header {
                guard let styled = headers.styledHeader(header, check) else { return false }
                deliveryHeader = styled
            } else {
                deliveryHeader = check.pluginHeader
            }
        } else if core.clientKeysRequired {
            guard let header = keyedDeliveryHeader(m, intent: m.bytes(base + 3), state: coreState) else { return false }
            deliveryHeader = header
        } else if let header {
            deliveryHeader = headers.headers[header].plainHeader
        }
        let mine = known.map { (count: Int(clients.open[Int($0)]), bytes: Int(clients.bytes[Int($0)])) } ?? (count: 0, bytes: 0)
        let inCore = core.coreOpen
        let facts = RequestFacts(size: size, hasId: requestId.count > 0, shuttingDown: core.shuttingDown,
                                 clientBacklog: 0, clientOpen: mine.count + (coreState?.open.count ?? 0),
                                 hostOpen: inCore.count + count,
                                 clientBytes: mine.bytes + (coreState?.openBytes ?? 0), hostBytes: inCore.bytes + bytes)
        guard core.admits(facts, slot) else { return false }
        let (e, id) = reserve()
        // A checked request's body, for its extension, and its check's reading, before the frame moves on.
        if let pass { keep(e, m.bytes(base + 5), pass) }
        let sent = peer.withUnsafeBytes { peerBytes in
            deliveryHeader.withUnsafeBytes { headerBytes in
                var forward = RawForward(to: .plugins)
                forward.packed = slot.packedLink
                forward.append(.bytes(peerBytes))
                forward.append(.received(base))       // IB1
                forward.append(.received(base + 1))   // REQUEST
                forward.append(.wireId(id))
                forward.append(.received(base + 3))   // intent
                // The plugin's header: empty, a keyed client's name, or the check's (style new).
                forward.append(headerBytes.isEmpty ? .empty : .bytes(headerBytes))
                forward.append(.received(base + 5))   // body
                // A full or vanished plugin is found at the routing id, before anything is queued.
                if case .sent = effects.forwardRaw(forward, from: m, store: store) { return true }
                return false
            }
        }
        guard sent else {
            if check != nil { forget(e) }
            unreserve(e)
            return false
        }
        let now = effects.now()
        let deadline = now &+ timeout
        open(e, m, base: base, entry: RelayEntry(
            slot: Int32(slotIndex), route: Int32(r), isRequestReply: base == 2, startedAt: now,
            deadline: deadline < now ? UInt64.max : deadline, keyHash: keyHash, timeout: timeout,
            queue: Int32(queue), size: Int32(size), checked: check != nil, header: Int32(header ?? -1)),
            client: known, identityHash: identityHash)
        core.laneOpened(slot)
        return true
    }

    /// A keyed (CURVE) client's request may take the lane once the general path has bound
    /// its connection and read its grant (at its first message), when this message comes
    /// with that same User-Id, the grant allows the intent and has no `rate` to count: the
    /// checks the general path makes (Authentication+Rights.swift, Pipeline/RequestPipeline+Plugins.swift, bindClient),
    /// whose answers are then the same. Returns the delivery header the core would write
    /// (`{"client":NAME}`, `Admission.deliveryHeader`); nil leaves the request
    /// to the general path, which checks and answers it as always.
    private func keyedDeliveryHeader(_ m: RawMessage, intent: UnsafeRawBufferPointer, state: ClientState?) -> [UInt8]? {
        guard let state, state.bound, !state.gone, let grant = state.grant, grant.ratePerSecond == nil,
              state.user != nil, state.user == m.property(1, "User-Id"),
              grant.allows(String(decoding: intent, as: UTF8.self)) else { return nil }
        if let known = clientHeaders[grant.name] { return known }
        let header = [UInt8](JSON.object(["client": .string(grant.name)]).canonicalData)
        clientHeaders[grant.name] = header
        return header
    }

    // MARK: - Plugin → client

    /// Ends a lane request with its plugin's well-formed REPLY, forwarded to the client:
    /// false leaves the message untouched, for the general path.
    func takeReply<Core: LaneCore>(_ m: RawMessage, _ core: Core) -> Bool {
        guard m.count == 7, !m.isTruncated, m.frame(1, equals: "IB1"), m.frame(2, equals: "REPLY"),
              let e = openEntry(named: m.bytes(3)) else { return false }
        let entry = entries[e]
        let slotIndex = Int(entry.slot)
        let effects = core.effects
        // From the plugin it was sent to, and nothing for the general path to look at.
        guard let peer = routes.peers[slotIndex], peer.withUnsafeBytes({ $0.sameBytes(m.bytes(0)) }),
              !effects.anyClientBacklog, m.size(5) + m.size(6) < HeldBytes.countedFrameBytes,
              routes.routes[Int(entry.route)].bytes.withUnsafeBytes({ $0.sameBytes(m.bytes(4)) })
        else { return false }
        // A checked request's REPLY: the one its flow would write (legacy), or forwarded as
        // is (new style); a plain one's header as the core last checked it.
        var rewritten: LaneRewrite?
        if entry.checked {
            rewritten = rewrittenReply(m, e, route: Int(entry.route), core)
            guard rewritten != nil || isCheckedReply(m, route: Int(entry.route), slot: slotIndex, core) else { return false }
        } else {
            guard isGoodLaneHeader(m.bytes(5), slot: slotIndex, core) else { return false }  // empty: the core names the plugin
        }
        let status: SendStatus
        if let rewritten {
            status = rewritten.header.withUnsafeBytes { header in
                rewritten.body.withUnsafeBytes { body in sendReply(e, m, entry, header: .bytes(header), body: .bytes(body), effects) }
            }
        } else {
            status = sendReply(e, m, entry, header: .received(5), body: .received(6), effects)
        }
        switch status {
        case .sent: break
        case .full: return false  // the general path keeps it for the client (promoted first)
        case .failed: core.logger.info("the client has gone away; its REPLY was dropped")
        }
        if entry.checked, rewritten?.succeeded ?? true {
            core.laneSucceeded(intent: routes.routes[Int(entry.route)].intent, slot: slotIndex,
                               client: entry.header < 0 ? nil : headers.headers[Int(entry.header)].client, body: bodies.bytes(e, 0))
        }
        release(e)
        core.laneReplied(core.slots[slotIndex], startedAt: entry.startedAt)
        return true
    }

    /// Sends a lane request's REPLY to its client: the plugin's REPLY `m` under the client's
    /// request id, with this header and body.
    private func sendReply(_ e: Int, _ m: RawMessage, _ entry: RelayEntry, header: RawPiece, body: RawPiece,
                           _ effects: any RouterEffects) -> SendStatus {
        var forward = RawForward(to: .clients)
        forward.append(.stored(e, part: 0))          // the client's identity
        if entry.isRequestReply { forward.append(.empty) }
        forward.append(.received(1))                 // IB1
        forward.append(.received(2))                 // REPLY
        forward.append(.stored(e, part: 1))          // the client's request id
        forward.append(.received(4))                 // intent
        forward.append(header)
        forward.append(body)
        return effects.forwardRaw(forward, from: m, store: store)
    }

    /// Whether a REPLY header may pass without a look: the one the core last checked for
    /// this plugin, once no extension asks to see replies with it (a donation, say).
    private func isGoodLaneHeader<Core: LaneCore>(_ header: UnsafeRawBufferPointer, slot: Int, _ core: Core) -> Bool {
        if isGoodHeader(header, slot: slot) { return true }
        let slots = core.slots
        guard let checked = slots[slot].goodReplyHeader, checked.count == header.count,
              checked.withUnsafeBytes({ $0.sameBytes(header) }),
              !core.extensions.contains(where: { $0.needs.contains(.everyPlainReply) || $0.needsToSee(replyHeader: header) })
        else { return false }
        adoptGoodHeader(header, slot: slot, slotCount: slots.count)
        return true
    }
}
