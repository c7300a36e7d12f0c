import Foundation
import IntentBus

/// Plugin lifecycle: spawn, handshake, crash, restart.
extension IntentRouter {
    /// How many crashes within `crashWindow` make the host give up on a plugin.
    static let crashLimit = 5
    static let crashWindow: UInt64 = 60_000_000_000
    static let handshakeTimeout: UInt64 = 10_000_000_000

    func startPlugin(_ slot: PluginSlot) {
        let spec = slot.spec
        slot.token = Self.makeToken()
        slot.spawnGeneration += 1
        if slot.lastError?.hasPrefix("handshake rejected") == true { slot.lastError = "previous " + slot.lastError! }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in spec.environment { env[k] = v }
        env["INTENTBUS_BACKEND"] = backendEndpointForPlugins
        env["INTENTBUS_PLUGIN_ID"] = spec.id
        env["INTENTBUS_TOKEN"] = slot.token
        env["INTENTBUS_HOST_PID"] = String(getpid())
        let index = slot.index
        do {
            let pid = try launcherForPlugins.spawn(path: spec.exec.path, arguments: spec.exec.arguments,
                                                   environment: env, label: spec.id) { [weak self] pid, status in
                self?.post(.pluginExited(index: index, pid: pid, status: status))
            }
            slot.state = .starting(pid: pid)
            slot.lastSpawnFailure = nil
            logger.info("started plugin \(spec.id) (pid \(pid)): \(spec.exec.commandLine)")
            timers.schedule(at: MonotonicClock.now() + Self.handshakeTimeout,
                            .handshakeDeadline(index: index, generation: slot.spawnGeneration))
        } catch {
            slot.state = .failed(reason: error.description)
            slot.lastError = error.description
            slot.lastSpawnFailure = MonotonicClock.now()
            logger.error("plugin \(spec.id) can't start: \(error) (declared at \(spec.mark))")
            failWaiting(slot, BusError(.pluginUnavailable, "plugin \(spec.id) is unavailable: \(error)",
                                       details: ["plugin": .string(spec.id)]))
        }
    }

    /// A plugin whose binary was missing is tried again when a request needs it, at most
    /// once a second, so that building it later is enough. Returns true if it is starting.
    func retryFailedSpawn(_ slot: PluginSlot) -> Bool {
        guard let failedAt = slot.lastSpawnFailure, MonotonicClock.now() - failedAt > 1_000_000_000 else { return false }
        startPlugin(slot)
        if case .starting = slot.state { return true }
        return false
    }

    func handshake(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        func refuse(_ code: String, _ reason: String, slot: PluginSlot?) {
            logger.error("rejected HELLO\(slot.map { " from plugin \($0.spec.id)" } ?? ""): \(reason)")
            if let slot { slot.lastError = "handshake rejected: \(reason)" }
            sendToBackend(envelope.copyFrames() + WireMessage(kind: .reject, header: nil,
                body: ["code": .string(code), "reason": .string(reason)]).frames)
        }
        let hello: JSON
        do { hello = try msg.bodyJSON() } catch {
            return refuse("bad_frame", "HELLO body is \(error.message)", slot: nil)
        }
        guard let id = hello["plugin"]?.stringValue, let slot = slots.first(where: { $0.spec.id == id }) else {
            return refuse("unknown_plugin", "plugin id \"\(hello["plugin"]?.displayText ?? "")\" is not in the manifest", slot: nil)
        }
        guard hello["protocol"]?.intValue == WireProtocol.version else {
            return refuse("unsupported_version", "protocol \(hello["protocol"]?.displayText ?? "?") is not supported; this host speaks \(WireProtocol.version)", slot: slot)
        }
        guard case .starting(let pid) = slot.state,
              let token = hello["token"]?.stringValue, constantTimeEquals(token, slot.token) else {
            return refuse("bad_token", "the token is wrong: only the process the host started may connect as \(id)", slot: slot)
        }
        var styles: [String: HandlerStyle] = [:]
        for entry in hello["intents"]?.arrayValue ?? [] {
            if let name = entry.stringValue {
                styles[name] = .plain
            } else if let name = entry["name"]?.stringValue {
                let raw = entry["style"]?.stringValue ?? "plain"
                guard let style = HandlerStyle(rawValue: raw) else {
                    return refuse("bad_metadata", "intent \(name) has unknown style \"\(raw)\" (plain, legacy or new)", slot: slot)
                }
                styles[name] = style
            }
        }
        let missing = slot.spec.intentsSupported.filter { styles[$0] == nil }
        if !missing.isEmpty {
            let reason = "no handler for \(missing.joined(separator: ", ")), which the manifest lists in IntentsSupported"
            refuse("missing_handler", reason, slot: slot)
            slot.state = .failed(reason: "handshake rejected: \(reason)")
            stopRejected(pid)
            return
        }
        if let problem = validateMetadata?(slot, hello) {
            refuse("bad_metadata", problem, slot: slot)
            slot.state = .failed(reason: "handshake rejected: \(problem)")
            stopRejected(pid)
            return
        }
        slot.styles = styles
        slot.metadata = hello["metadata"] ?? .object([:])
        slot.state = .ready(pid: pid, identity: envelope.identity)
        registerIdentity(envelope.identity, index: slot.index)
        sendToBackend(envelope.copyFrames() + WireMessage(kind: .welcome, header: nil,
                                                          body: ["protocol": .int(WireProtocol.version)]).frames)
        logger.info("plugin \(id) is ready (pid \(pid)): \(styles.keys.sorted().joined(separator: ", "))")
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = exchanges[hostId] { beginWaiting(exchange, slot) }
        }
    }

    func pluginExited(_ slot: PluginSlot, pid: pid_t, status: ExitStatus) {
        guard slot.pid == pid else { return }  // a previous process of this plugin
        if let identity = slot.identity { unregisterIdentity(identity) }
        if isStopping {
            slot.state = .stopped
            logger.info("plugin \(slot.spec.id) (pid \(pid)) stopped: \(status)")
            return
        }
        let now = MonotonicClock.now()
        slot.crashTimes = slot.crashTimes.filter { now - $0 < Self.crashWindow } + [now]
        // A rejected handshake is the real story; the exit that follows is its consequence.
        if let rejection = slot.lastError, rejection.hasPrefix("handshake rejected"), slot.identity == nil {
            slot.lastError = "\(rejection); pid \(pid) then \(status)"
        } else {
            slot.lastError = "pid \(pid) \(status)"
        }
        logger.error("plugin \(slot.spec.id) (pid \(pid)) \(status)")
        failInFlight(slot, BusError(.pluginCrashed,
            "plugin \(slot.spec.id) (pid \(pid)) \(status) while handling this request",
            details: ["plugin": .string(slot.spec.id), "exit": status.json]))
        if case .failed = slot.state {
            failWaiting(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is unavailable: \(slot.lastError ?? "")"))
            return
        }
        if slot.crashTimes.count >= Self.crashLimit {
            let reason = "crashed \(slot.crashTimes.count) times within \(Self.crashWindow / 1_000_000_000) s; not restarting (last: \(status))"
            slot.state = .failed(reason: reason)
            logger.error("plugin \(slot.spec.id) \(reason)")
            failWaiting(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is unavailable: \(reason)"))
            return
        }
        let delay = min(UInt64(100_000_000) << UInt64(slot.crashTimes.count - 1), 5_000_000_000)
        slot.state = .backoff
        slot.restarts += 1
        timers.schedule(at: now + delay, .restart(index: slot.index))
    }

    /// A rejected plugin is told why (REJECT) and should exit by itself; SIGTERM at once
    /// would race its last log line. It gets SIGTERM only if it is still running 2 s later.
    func stopRejected(_ pid: pid_t) {
        rejectedPids.insert(pid)
        timers.schedule(at: MonotonicClock.now() + 2_000_000_000, .stopRejected(pid: pid))
    }

    static func makeToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(rng.next() as UInt64, radix: 16) }.joined()
    }
}
