import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusProcess

/// The plugin side: messages from plugins, and the plugin lifecycle (spawn, handshake,
/// crash, restart).
extension RouterCore {
    /// A message a plugin sent (its frames, connection identity first).
    func pluginFrames(_ frames: [Frame]) {
        assertConfined()
        guard let (envelope, rest) = RoutingEnvelope.split(frames) else { return }
        let msg: WireMessage
        do { msg = try WireMessage.decode(rest) } catch {
            let who = identities[envelope.identity].map { slots[$0].spec.id } ?? "an unknown peer"
            logger.warning("malformed message from \(who) on the backend: \(error.message)")
            return
        }
        guard let index = identities[envelope.identity] else {
            if msg.kind == .hello {
                return handshake(envelope, msg, user: frames.count > 1 ? frames[1].property("User-Id") : nil)
            }
            logger.warning("\(msg.kind.rawValue) from a peer that has not said HELLO; rejected")
            _ = effects.sendToPlugin(envelope.identity, WireMessage(kind: .reject, header: nil,
                body: ["code": "handshake_required", "reason": "say HELLO first"]).frames)
            return
        }
        let slot = slots[index]
        slot.lastHeard = effects.now()  // any message is a sign of life
        switch msg.kind {
        case .reply, .error, .prompt, .progress:
            if !hostQueries.isEmpty, let id = hostQueries[msg.requestId] { return hostQueryAnswered(id, msg, slot) }
            guard let exchange = book[wireId: msg.requestId], exchange.pluginIndex == index, exchange.isDelivered else {
                logger.debug("\(msg.kind.rawValue) for request \(msg.requestId) from \(slot.spec.id) arrived after it ended; dropped")
                return
            }
            if msg.kind == .prompt, case .prompting = exchange.stage {
                // One open question per request: a plugin's 2,000 PROMPTs for one request
                // were all relayed to the client before its first answer.
                logger.warning("plugin \(slot.spec.id) asked a second question on request \(exchange.clientRequestId) before the first was answered")
                cancelAtPlugin(exchange, reason: "a second PROMPT while one was open")
                return fail(exchange, BusError(.pluginError, "plugin \(slot.spec.id) sent a PROMPT while its previous one was unanswered; a request has one open question at a time",
                                               details: ["plugin": .string(slot.spec.id)]))
            }
            if let flow = exchange.flow {
                flow.pluginMessage(msg, exchange, self)
            } else {
                relayPlain(msg, exchange)
            }
        case .disconnect:
            logger.info("plugin \(slot.spec.id) said DISCONNECT")
            connectionLost(slot, envelope.identity)
        case .hello:
            handshake(envelope, msg, user: frames.count > 1 ? frames[1].property("User-Id") : nil)
        case .heartbeat:
            break
        default:
            logger.warning("plugin \(slot.spec.id) sent \(msg.kind.rawValue), which plugins may not send")
        }
    }

    /// The plain path: forward the plugin's message itself to the client, under the client's
    /// request id and intent, moving its frames.
    func relayPlain(_ msg: WireMessage, _ exchange: Exchange) {
        let slot = slots[exchange.pluginIndex]
        if let problem = pluginMessageProblem(msg, slot) {
            logger.warning("plugin \(slot.spec.id) broke the protocol on request \(exchange.clientRequestId): \(problem)")
            if msg.kind == .progress { return }  // not needed: dropped
            if msg.kind == .prompt { cancelAtPlugin(exchange, reason: "invalid prompt") }
            return fail(exchange, BusError(.pluginError, "plugin \(slot.spec.id) sent an invalid answer: \(problem)",
                                           details: ["plugin": .string(slot.spec.id)]))
        }
        nameReplyPlugin(msg, slot)
        msg.requestId = exchange.clientRequestId
        msg.intent = exchange.intent
        switch msg.kind {
        case .reply, .error:
            complete(exchange, msg)
        case .prompt:
            exchange.stage = .prompting
            armConversationExpiry(exchange)
            effects.sendToClient(exchange.client, msg)
        case .progress:
            guard !exchange.client.isRequestReply else { return }
            effects.sendToClient(exchange.client, msg)
        default:
            break
        }
    }


    func startPlugin(_ slot: PluginSlot) {
        let spec = slot.spec
        slot.token = Self.makeToken()
        _ = slot.life.willSpawn()
        switch effects.spawn(spec, index: slot.index, token: slot.token) {
        case .success(let pid):
            perform(slot.life.spawned(pid: pid, command: spec.exec.commandLine), slot)
        case .failure(let error):
            perform(slot.life.spawnFailed(error.description, at: effects.now(), declaredAt: "\(spec.mark)"), slot)
        }
    }

    /// A plugin whose binary was missing is tried again when a request needs it, at most
    /// once a second, so that building it later is enough. Returns true if it is starting.
    func retryFailedSpawn(_ slot: PluginSlot) -> Bool {
        guard slot.life.mayRetrySpawn(now: effects.now()) else { return false }
        startPlugin(slot)
        if case .starting = slot.state { return true }
        return false
    }

    func handshake(_ envelope: RoutingEnvelope, _ msg: WireMessage, user: String? = nil) {
        func refuse(_ code: String, _ reason: String, slot: PluginSlot?) {
            logger.error("rejected HELLO\(slot.map { " from plugin \($0.spec.id)" } ?? ""): \(reason)")
            slot?.life.helloRefused(reason)
            _ = effects.sendToPlugin(envelope.identity, WireMessage(kind: .reject, header: nil,
                body: ["code": .string(code), "reason": .string(reason)]).frames)
        }
        let hello: JSON
        do { hello = try msg.bodyJSON() } catch {
            return refuse("bad_frame", "HELLO body is \(error.message)", slot: nil)
        }
        guard let id = hello["plugin"]?.stringValue, let slot = helloSlot(id: id, token: hello["token"]?.stringValue) else {
            return refuse("unknown_plugin", "plugin id \"\(hello["plugin"]?.displayText ?? "")\" is not in the manifest", slot: nil)
        }
        guard hello["protocol"]?.intValue == WireProtocol.version else {
            return refuse("unsupported_version", "protocol \(hello["protocol"]?.displayText ?? "?") is not supported; this host speaks \(WireProtocol.version)", slot: slot)
        }
        // A spawned plugin proves its process with the token; a remote one its key, which
        // the ZAP handler checked and named in the connection's User-Id.
        let pid: pid_t
        if case .remote = slot.state {
            guard user == "plugin:\(id)" else {
                return refuse("bad_key", "only the key listed for remote plugin \(id) may connect as it", slot: slot)
            }
            pid = 0
        } else {
            guard case .starting(let started, _) = slot.state,
                  let token = hello["token"]?.stringValue, constantTimeEquals(token, slot.token) else {
                return refuse("bad_token", "the token is wrong: only the process the host started may connect as \(id)", slot: slot)
            }
            pid = started.pid
        }
        let styles: [String: HandlerStyle]
        do {
            styles = try HelloIntents.styles(hello["intents"])
        } catch {
            return refuse("bad_metadata", error.description, slot: slot)
        }
        let missing = slot.spec.intentsSupported.filter { styles[$0] == nil }
        if !missing.isEmpty {
            let reason = "no handler for \(missing.joined(separator: ", ")), which the manifest lists in IntentsSupported"
            refuse("missing_handler", reason, slot: slot)
            return perform(slot.life.helloRejected(reason), slot)
        }
        if let problem = extensions.lazy.compactMap({ $0.checkHello(slot, hello) }).first {
            refuse("bad_metadata", problem, slot: slot)
            return perform(slot.life.helloRejected(problem), slot)
        }
        slot.styles = styles
        slot.metadata = hello["metadata"] ?? .object([:])
        let closing = slot.life.helloAccepted(identity: envelope.identity)
        identities[envelope.identity] = slot.index
        slot.connectionUser = user
        _ = effects.sendToPlugin(envelope.identity, WireMessage(kind: .welcome, header: nil,
                                                                body: ["protocol": .int(WireProtocol.version)]).frames)
        logger.info("plugin \(id) is ready (pid \(pid)): \(styles.keys.sorted().joined(separator: ", "))")
        startHeartbeats(slot)
        perform(closing, slot)
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = exchanges[hostId] { begin(exchange, slot) }
        }
    }

    /// The plugin's connection has ended (DISCONNECT, or another connection took over its
    /// routing id): it waits for a new HELLO, and what it held fails.
    func connectionLost(_ slot: PluginSlot, _ identity: Data) {
        identities.removeValue(forKey: identity)
        slot.connectionUser = nil
        slot.life.connectionLost()
        failInFlight(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) disconnected while handling this request",
                                    details: ["plugin": .string(slot.spec.id)]))
    }

    func pluginExited(_ slot: PluginSlot, pid: pid_t, status: ExitStatus) {
        let context = PluginSupervisor.ExitContext(hostStopping: stopping, draining: draining, hasWaiting: !slot.waiting.isEmpty,
                                                   lifecycle: slot.spec.lifecycle, cpuLimit: slot.spec.guards.cpuLimit)
        perform(slot.life.exited(pid: pid, status: status, now: effects.now(), context), slot)
    }

    /// A rejected plugin is told why (REJECT) and should exit by itself; SIGTERM at once
    /// would race its last log line. It gets SIGTERM only if it is still running 2 s later.
    func stopRejected(_ pid: pid_t) {
        rejectedPids.insert(pid)
        timers.schedule(at: deadline(after: 2_000_000_000), .stopRejected(pid: pid))
    }

    static func makeToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(rng.next() as UInt64, radix: 16) }.joined()
    }
}
