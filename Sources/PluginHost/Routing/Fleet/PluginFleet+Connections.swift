import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusProcess

/// A plugin's process and connection: spawn, the handshake, a lost connection, an exit.
extension PluginFleet {
    /// A message from a plugin connection: what is the fleet's own is handled here (a
    /// HELLO, a DISCONNECT, a HEARTBEAT, a kind plugins may not send, anything from a peer
    /// that has not said HELLO); for a REPLY, ERROR, PROMPT or PROGRESS, which concern a
    /// request, the slot it came from is returned for the core. Any message from a known
    /// connection is a sign of life. `user`: the message's User-Id (CURVE), for a HELLO.
    func received(_ envelope: RoutingEnvelope, _ msg: WireMessage, user: () -> String?) -> PluginSlot? {
        guard let index = identities[envelope.identity] else {
            if msg.kind == .hello {
                handshake(envelope, msg, user: user())
                return nil
            }
            logger.warning("\(msg.kind.rawValue) from a peer that has not said HELLO; rejected")
            _ = effects.sendToPlugin(envelope.identity, WireMessage(kind: .reject, header: nil,
                body: ["code": "handshake_required", "reason": "say HELLO first"]).frames)
            return nil
        }
        let slot = slots[index]
        slot.lastHeard = effects.now()  // any message is a sign of life
        switch msg.kind {
        case .reply, .error, .prompt, .progress:
            return slot
        case .disconnect:
            logger.info("plugin \(slot.spec.id) said DISCONNECT")
            connectionLost(slot, envelope.identity)
        case .hello:
            handshake(envelope, msg, user: user())
        case .heartbeat:
            break
        default:
            logger.warning("plugin \(slot.spec.id) sent \(msg.kind.rawValue), which plugins may not send")
        }
        return nil
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

    /// A HELLO, from a connection not known yet or from one that said HELLO before.
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
        if let problem = host.helloProblem(slot, hello) {
            refuse("bad_metadata", problem, slot: slot)
            return perform(slot.life.helloRejected(problem), slot)
        }
        slot.styles = styles
        slot.metadata = hello["metadata"] ?? .object([:])
        let closing = slot.life.helloAccepted(identity: envelope.identity)
        bind(envelope.identity, to: slot.index)
        slot.connectionUser = user
        // The packed form on this link when the plugin asks for it (§5.1); the WELCOME
        // itself goes as six frames, which a plugin reads at any time.
        let packs = hello["packed"] == .bool(true)
        slot.packedLink = false
        let welcome: JSON = packs ? ["protocol": .int(WireProtocol.version), "packed": .bool(true)]
                                  : ["protocol": .int(WireProtocol.version)]
        _ = effects.sendToPlugin(envelope.identity, WireMessage(kind: .welcome, header: nil, body: welcome).frames)
        slot.packedLink = packs
        logger.info("plugin \(id) is ready (pid \(pid)): \(styles.keys.sorted().joined(separator: ", "))")
        startHeartbeats(slot)
        perform(closing, slot)
        host.beginWaiting(slot)
    }

    /// The plugin's connection has ended (DISCONNECT, or another connection took over its
    /// routing id): it waits for a new HELLO, and what it held fails.
    func connectionLost(_ slot: PluginSlot, _ identity: Data) {
        unbind(identity)
        slot.connectionUser = nil
        slot.packedLink = false
        slot.life.connectionLost()
        host.failInFlight(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) disconnected while handling this request",
                                         details: ["plugin": .string(slot.spec.id)]))
    }

    /// A plugin message on a CURVE backend: false (drop it) when its routing id belongs to
    /// a plugin whose HELLO came with another User-Id. That plugin's connection is then
    /// gone, and is treated as after DISCONNECT (`bindClient`, Pipeline/RequestPipeline+Plugins.swift).
    func pluginMessageBound(_ identity: Data, user: String?) -> Bool {
        guard let index = identities[identity] else { return true }
        let slot = slots[index]
        guard slot.connectionUser != user else { return true }
        logger.warning("a connection authenticated as \(user ?? "nobody") reused the routing id \(routingIdHex(identity)) of plugin \(slot.spec.id) (\(slot.connectionUser ?? "nobody")), which has gone: its message was dropped and \(slot.spec.id) waits for a new HELLO")
        connectionLost(slot, identity)
        return false
    }

    /// The process of the slot at `index` has exited (and was reaped: its pid may be
    /// reused, so it is never signalled again).
    func exited(index: Int, pid: pid_t, status: ExitStatus) {
        forgetRejected(pid)
        let slot = slots[index]
        let context = PluginSupervisor.ExitContext(hostStopping: host.stopping, draining: host.draining, hasWaiting: !slot.waiting.isEmpty,
                                                   lifecycle: slot.spec.lifecycle, cpuLimit: slot.spec.guards.cpuLimit)
        perform(slot.life.exited(pid: pid, status: status, now: effects.now(), context), slot)
    }

    static func makeToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(rng.next() as UInt64, radix: 16) }.joined()
    }
}
