import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusProcess
import IntentBusManifest

/// The router's I/O: the two ROUTER sockets, the poll loop, the mailbox that carries
/// events from other threads, the process launcher, and the messages kept for clients
/// that do not read. It owns a `RouterCore` and carries out what the core decides
/// (`RouterEffects`).
///
/// Threading: built on any thread, then `run()` on the router thread, which owns the
/// sockets and the core from then on. Other threads reach it only through `mailbox`
/// (a `Mailbox` is `Sendable`), so nothing here needs `@unchecked Sendable`.
final class RouterShell: RouterEffects {
    private let manifest: Manifest
    private let logger: Logger
    private let frontend: ZMQSocket
    private let backend: ZMQSocket
    /// Events from other threads: plugin exits, signals, committed choice writes.
    let mailbox: Mailbox<RouterEvent>
    /// The plugin processes: pidfds and output pipes, polled in `run()`.
    private let children: ChildSupervisor
    /// `sha256` checks before a start, `cpu_limit` after (Supervision/ProcessGuards.swift).
    private let guards = ProcessGuards()
    private let backendEndpoint: String
    /// Where a plugin reaches the host as a client (INVoiceShortcutCenter: ib.shortcuts.*).
    private let frontendEndpoint: String
    /// The ZAP handler, polled with the sockets, when CURVE is on.
    private let zap: ZAPHandler?
    /// For spawned plugins of a CURVE backend: the host's public key and their key pair.
    private let pluginCurve: (serverKey: String, keys: CurveKeyPair)?
    private var backlogs = ClientBacklogs()
    /// What libzmq holds for each client and plugin, in bytes (QueuedBytes.swift).
    private var queued = QueuedBytes()
    /// When the next attempt to send what waits for slow clients is due, and the delay
    /// after it (backing off from 1 ms to 50 ms while nobody reads).
    private var flushAt: UInt64?
    private var flushDelay: UInt64 = 1_000_000
    /// Set by `init`; the core holds the shell unowned.
    private(set) var core: RouterCore!
    /// The Majordomo endpoint (`host.mdp`), when set: its socket is polled here, and what
    /// the core sends to its stand-in identities goes to it (Majordomo/).
    private var mdp: MajordomoEndpoint?
    /// Where each received message lands before the core takes it.
    private let received = RawMessage(capacity: 8)
    /// The backend is CURVE: each plugin message's User-Id is checked against its
    /// connection's (`bindClient`, Routing/Pipeline/RequestPipeline+Plugins.swift), before the lane.
    private let backendKeyed: Bool
    /// Clients that speak the packed form (docs/protocol.md §2.1), answered in it.
    private var packed = PackedClients()

    init(manifest: Manifest, logger: Logger, context: ZMQContext, sockets: BoundSockets,
         logBook: PluginLogBook) throws(ZMQError) {
        self.manifest = manifest
        self.logger = logger
        frontend = sockets.frontend
        backend = sockets.backend
        zap = sockets.zap
        pluginCurve = sockets.pluginCurve
        backendKeyed = sockets.pluginCurve != nil
        children = ChildSupervisor(logger: logger, logBook: logBook)
        backendEndpoint = sockets.backend.lastEndpoint
        frontendEndpoint = sockets.frontend.lastEndpoint
        let mailbox = try Mailbox<RouterEvent>(context: context, name: "router")
        self.mailbox = mailbox
        core = RouterCore(manifest: manifest, logger: logger, effects: self, post: { mailbox.post($0) })
        core.clientKeysRequired = sockets.clientKeys
        if ProcessInfo.processInfo.environment["INTENTBUS_RELAY_LANE"] != "0" {
            core.enableRelayLane()
        }
        if let socket = sockets.mdp, let settings = manifest.host.mdp {
            mdp = MajordomoEndpoint(socket: socket, settings: settings, core: core, logger: logger)
        }
    }

    /// Runs until the core has shut down (after a `.shutdown` event).
    func run() {
        core.start()
        let sockets = [frontend, backend, mailbox.receiver] + (zap.map { [$0.socket] } ?? []) + (mdp.map { [$0.socket] } ?? [])
        let mdpIndex = zap == nil ? 3 : 4
        // plugins.d/ changes reload the manifest (RouterCore+Reload.swift).
        let dropIns = DropInWatcher(manifestPath: manifest.path, logger: logger)
        let fixed = dropIns.fd >= 0 ? [dropIns.fd] : []
        // The children's pidfds and pipes follow; the poller is rebuilt when they change.
        var (childFDs, childGeneration) = (children.fds, children.generation)
        var poller = Poller(sockets, fds: fixed + childFDs)
        while true {
            if children.generation != childGeneration {
                (childFDs, childGeneration) = (children.fds, children.generation)
                poller = Poller(sockets, fds: fixed + childFDs)
            }
            // The earliest deadline, without an array per round.
            let next = earliest(earliest(earliest(core.nextDeadline, flushAt), earliest(dropIns.dueAt, mdp?.nextDeadline)),
                                core.nextLaneDeadline)
            var timeout = -1
            if let next {
                let now = MonotonicClock.now()
                // At most a minute: a far deadline (up to UInt64.max) must not overflow.
                timeout = next <= now ? 0 : Int(min(next - now, 60_000_000_000) / 1_000_000) + 1
            }
            do { try poller.wait(timeoutMs: timeout) } catch {
                logger.error("poll failed: \(error); stopping")
                break
            }
            if poller.isReady(0) { drain(.clients) }
            if poller.isReady(1) { drain(.plugins) }
            if poller.isReady(2) {
                for event in mailbox.drain() {
                    if case .pluginExited(_, let pid, _) = event { children.threadedChildExited(pid) }
                    core.handle(event)
                }
            }
            if zap != nil, poller.isReady(3) { zap?.answerWaiting() }
            if !fixed.isEmpty, poller.isReady(sockets.count) { dropIns.consume(now: MonotonicClock.now()) }
            let base = sockets.count + fixed.count
            if poller.count > base {
                for (i, fd) in childFDs.enumerated() where poller.isReady(base + i) {
                    if let exit = children.readable(fd) {
                        core.handle(.pluginExited(index: exit.tag, pid: exit.pid, status: exit.status))
                    }
                }
            }
            if dropIns.dueAt != nil, let files = dropIns.due(now: MonotonicClock.now()) {
                core.reload(trigger: files.joined(separator: ", "))
            }
            if let mdp {
                if poller.isReady(mdpIndex) { mdp.drain() }
                mdp.fireDue()
            }
            core.promoteDue()
            core.fireDueTimers()
            core.roundEnded()
            mdp?.flush()
            if let flushAt, flushAt <= MonotonicClock.now() { flushClients() }
            if core.isFinished { break }  // checks `stopping` first: nothing on the hot path
        }
        children.closeAll()
        core.choiceBook.stopWriter()  // queued writes finish; their outcomes are not needed any more
        for ext in core.extensions { ext.stop() }  // likewise for extensions' own threads
        mailbox.close()
    }

    /// At most this many messages from one side per loop round. A round used to take up
    /// to 1,024 from each side: under the live fuzzer (debug build, debug log) that was
    /// 600 ms before a client's next message was looked at, and `ib.ping` waited that
    /// long (issue 24's proof: within 100 ms). 128 still makes a burst cost one poll per
    /// 128 messages; the rest waits, readable, for the next round.
    static let messagesPerRound = 32

    /// Reads the messages waiting on one side's socket (up to `messagesPerRound`), so
    /// that a burst costs few polls; each goes to the core's one entry, `receive` (which
    /// hands it to the relay lane or the general path).
    private func drain(_ side: RouterSide) {
        let socket = side == .clients ? frontend : backend
        for _ in 0..<Self.messagesPerRound {
            do { guard try received.receive(from: socket) else { return } } catch {
                logger.error("receive failed: \(error)")
                return
            }
            if side == .clients, !unpackClientMessage() { continue }
            if side == .plugins, !unpackPluginMessage() { continue }
            if side == .plugins, backendKeyed, received.count > 1,
               !core.fleet.pluginMessageBound(Data(received.bytes(0)), user: received.property(1, "User-Id")) {
                continue  // the next receive releases its frames
            }
            core.receive(side, received)
        }
    }

    /// A client's packed message becomes its six frames before anything reads it, and
    /// the client is answered packed from then on (`PackedClients`); a malformed one is
    /// refused with `bad_frame` saying which length does not fit (false: nothing more to do).
    private func unpackClientMessage() -> Bool {
        let wasPacked: Bool
        do throws(WireError) { wasPacked = try received.unpack() } catch {
            let frames = received.takeFrames()
            guard let (envelope, _) = RoutingEnvelope.split(frames) else { return false }
            packed.heard(envelope.identity, packed: true)
            core.undecodable(envelope, ArraySlice<Frame>(), error)
            return false
        }
        if wasPacked || !packed.isEmpty { packed.heard(Data(received.bytes(0)), packed: wasPacked) }
        return true
    }

    /// A plugin's packed message (its link agreed to the form at HELLO, §5.1) becomes its
    /// six frames before anything reads it; a malformed one is dropped with a warning,
    /// as any message from a plugin that is not IB1 (false: nothing more to do).
    private func unpackPluginMessage() -> Bool {
        do throws(WireError) { _ = try received.unpack() } catch {
            logger.warning("dropped a malformed packed message from a plugin: \(error.message)")
            return false
        }
        return true
    }

    // MARK: - RouterEffects

    func now() -> UInt64 { MonotonicClock.now() }

    func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome {
        if let mdp, mdp.owns(identity) { return mdp.sendToPlugin(identity, frames) }
        var frames = frames
        if QueuedBytes.isLarge(frames) {
            // A plugin that does not take its requests must not make libzmq hold more than
            // its share: `busy` for this one, as for a full pipe.
            let limits = manifest.host.limits
            guard queued.fits(QueuedBytes.size(frames), for: identity, limit: limits.pluginQueueBytes,
                              totalLimit: limits.maxQueuedBytes, extra: backlogs.total.bytes) else { return .full }
            frames = queued.counted(frames, for: identity)
        } else if core.fleet.packs(identity) {
            // The plugin agreed to the packed form at HELLO (§5.1).
            let one = Frame()
            if one.setPacked(frames[...], limit: PackedFrame.linkLimit) { frames = [one] }
        }
        do {
            return try backend.send(to: identity, frames, dontWait: true) ? .sent : .full
        } catch {
            return .unreachable(error.message)
        }
    }

    func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError> {
        // A minimal environment, not the host's (issue 23): PluginEnvironment says what.
        var env = PluginEnvironment.base(from: ProcessInfo.processInfo.environment, inheriting: spec.inheritedEnvironment)
        for (k, v) in spec.environment { env[k] = v }
        env["INTENTBUS_BACKEND"] = backendEndpoint
        env["INTENTBUS_FRONTEND"] = frontendEndpoint
        env["INTENTBUS_PLUGIN_ID"] = spec.id
        env["INTENTBUS_TOKEN"] = token
        env["INTENTBUS_HOST_PID"] = String(getpid())
        if let pluginCurve {
            env["INTENTBUS_SERVER_KEY"] = pluginCurve.serverKey
            env["INTENTBUS_CURVE_PUBLIC"] = pluginCurve.keys.publicKey
            env["INTENTBUS_CURVE_SECRET"] = pluginCurve.keys.secretKey
        }
        // sha256: the file is opened once, hashed through the descriptor, and that
        // descriptor is what runs (a `#!` script runs by path; docs/security.md).
        var checked: ProcessGuards.CheckedExecutable?
        if let expected = spec.guards.sha256 {
            switch guards.openChecked(path: spec.exec.path, expected: expected) {
            case .refused(let problem): return .failure(SpawnError(path: spec.exec.path, errno: EPERM, reason: problem))
            case .verified(let file): checked = file
            case .missing: break
            }
        }
        defer { if let checked { close(checked.descriptor) } }
        let mailbox = self.mailbox
        do {
            let pid = try children.spawn(path: spec.exec.path, arguments: spec.exec.arguments, environment: env,
                                         limits: spec.guards.cpuLimit.map { [ProcessGuards.cpuLimit($0)] } ?? [],
                                         executableDescriptor: checked.flatMap { $0.isScript ? nil : $0.descriptor },
                                         label: spec.id, tag: index) { pid, status in
                mailbox.post(.pluginExited(index: index, pid: pid, status: status))  // no pidfd: a waiter thread
            }
            return .success(pid)
        } catch {
            return .failure(error)
        }
    }

    func signal(_ pid: pid_t, _ signal: Int32) { children.signal(pid, signal) }

    func forwardRaw(_ forward: borrowing RawForward, from m: RawMessage, store: MessageStore) -> SendStatus {
        if forward.side == .clients, !packed.isEmpty {
            // A client that packs: its answer as one packed frame (copies; the lane's
            // stored parts are released as a send would have moved them).
            let frames = forward.frames(from: m, store: store)
            let identity = frames[0].data
            if packed.contains(identity) {
                let status: SendStatus
                do { status = try frontend.send(packed.outgoing(frames, to: identity), dontWait: true) ? .sent : .full } catch {
                    status = .failed(error.code)
                }
                if status == .sent { forward.release(store) }
                return status
            }
        }
        return forward.send(on: forward.side == .plugins ? backend : frontend, from: m, store: store)
    }

    var anyClientBacklog: Bool { !backlogs.isEmpty }

    func clientBacklog(_ identity: Data) -> Int { backlogs.backlog(for: identity)?.count ?? 0 }

    /// Sends to a client. A client whose pipe is full (it is not reading) gets its
    /// messages kept, in order, up to `limits.client_backlog`, and sent once it reads;
    /// PROGRESS, which is never needed, is dropped for it instead.
    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        if let mdp, mdp.owns(envelope.identity) { return mdp.sendToClient(envelope.identity, msg) }
        let frames = msg.frames(after: envelope.isRequestReply ? [Frame()] : [])
        if let backlog = backlogs.backlog(for: envelope.identity), !backlog.isEmpty {
            return keep(frames, in: backlog, kind: msg.kind)
        }
        do {
            if try sendCounted(frames, to: envelope.identity) { return }
            keep(frames, in: backlogs.open(envelope.identity), kind: msg.kind)
        } catch let error where error.isHostUnreachable {
            logger.info("the client has gone away; its \(msg.kind.rawValue) was dropped")
        } catch {
            logger.warning("send to a client failed: \(error)")
        }
    }

    /// Sends to a client, the large frames as counted copies (QueuedBytes); false when
    /// its pipe is full or libzmq holds its share of bytes for it already.
    private func sendCounted(_ frames: [Frame], to identity: Data) throws(ZMQError) -> Bool {
        let frames = packed.outgoing(frames, to: identity)
        guard QueuedBytes.isLarge(frames) else { return try frontend.send(to: identity, frames, dontWait: true) }
        let limits = manifest.host.limits
        guard queued.fits(QueuedBytes.size(frames), for: identity, limit: limits.clientQueueBytes,
                          totalLimit: limits.maxQueuedBytes, extra: backlogs.total.bytes) else { return false }
        return try frontend.send(to: identity, queued.counted(frames, for: identity), dontWait: true)
    }

    private func keep(_ frames: [Frame], in backlog: ClientBacklogs.Backlog, kind: MessageKind) {
        let limits = manifest.host.limits
        // The backlogs and what libzmq holds share the host's total.
        let room = limits.maxQueuedBytes - queued.total.value
        if kind != .progress, backlog.append(frames, limit: limits.clientBacklog, byteLimit: limits.clientBacklogBytes, totalLimit: room) {
            if backlog.count == 1 {
                logger.warning("a client is not reading: its answers are kept for it (at most \(limits.clientBacklog), \(limits.clientBacklogBytes) bytes) and its new requests get busy")
                if flushAt == nil { flushAt = MonotonicClock.now() + flushDelay }
            }
            return
        }
        if backlog.isEmpty { backlogs.close(backlog) }
        if kind == .progress { return }
        guard let report = backlogs.dropped(backlog.identity, now: MonotonicClock.now()) else { return }
        logger.error("a client that is not reading has \(backlog.count) answers (\(backlog.bytes) bytes) waiting and libzmq \(queued.held(by: backlog.identity)) bytes, its limits (client_backlog \(limits.clientBacklog), client_backlog_bytes \(limits.clientBacklogBytes), max_queued_bytes \(limits.maxQueuedBytes)): \(report.sinceReport) more were dropped since the last report (\(report.total) in all)")
    }

    /// Sends what waits for clients that were not reading, in order, until a pipe is full
    /// again; tried again later, backing off while nobody reads.
    private func flushClients() {
        var progressed = false
        for backlog in Array(backlogs.waiting.values) {
            while let frames = backlog.first {
                do {
                    guard try sendCounted(frames, to: backlog.identity) else { break }
                    backlog.removeFirst()
                    progressed = true
                } catch {
                    logger.info("a client with \(backlog.count) waiting answers has gone away; they were dropped")
                    backlog.clear()
                }
            }
            if backlog.isEmpty {
                if let drops = backlogs.readAgain(backlog.identity) {
                    logger.warning("a client read again after \(drops.total) of its answers were dropped")
                }
                backlogs.close(backlog)
            }
        }
        guard !backlogs.isEmpty else {
            queued.forgetIdle()
            flushAt = nil
            flushDelay = 1_000_000
            return
        }
        flushDelay = progressed ? 1_000_000 : min(flushDelay * 2, 50_000_000)
        flushAt = MonotonicClock.now() + flushDelay
    }
}

/// The earlier of two optional deadlines.
@inline(__always) private func earliest(_ a: UInt64?, _ b: UInt64?) -> UInt64? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
