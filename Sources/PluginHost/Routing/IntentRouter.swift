import Foundation
import IntentBus

/// Something that happened off the router thread.
enum RouterEvent: Sendable {
    case pluginExited(index: Int, pid: pid_t, status: ExitStatus)
    case shutdown
}

/// Timers the router keeps.
enum RouterTimer {
    /// The plugin did not answer in time.
    case requestDeadline(hostId: UInt64, generation: UInt64)
    /// Nobody answered a prompt in time.
    case conversationExpiry(hostId: UInt64, generation: UInt64)
    /// Start a crashed plugin again.
    case restart(index: Int)
    /// A spawned plugin did not say HELLO in time.
    case handshakeDeadline(index: Int, generation: UInt64)
    /// Shutdown: signal the plugins that are still running.
    case stopPlugins(signal: Int32)
    /// A plugin whose handshake was rejected has not exited on its own.
    case stopRejected(pid: pid_t)
}

/// Routes intent requests from clients to plugins. The hot path (take a request, pick
/// the plugin, forward; take the reply, forward back) runs here, on the one thread that
/// owns both ROUTER sockets, with no task hop per message.
///
/// Threading: every method runs on the router thread, except `post`, which any thread may
/// call. Marked `@unchecked Sendable` only so that the thread's closure can hold it;
/// `run()` asserts it stays on one thread.
final class IntentRouter: @unchecked Sendable {
    let manifest: Manifest
    let logger: Logger
    private let frontend: ZMQSocket
    private let backend: ZMQSocket
    private let mailbox: Mailbox<RouterEvent>
    private let launcher: ChildProcessLauncher
    private let backendEndpoint: String

    var slots: [PluginSlot]
    /// Intent name → indices of the plugins claiming it, sorted by plugin id so that
    /// routing never depends on which plugin registered first.
    var routes: [String: [Int]] = [:]
    /// Intent name → indices of the disabled plugins (`enabled: false`) claiming it. They
    /// are not in `routes`, but are named in errors and in `ib.explain`.
    var disabledClaims: [String: [Int]] = [:]
    var exchanges = ExchangeTable()
    var byClient: [ClientKey: UInt64] = [:]
    private var identities: [Data: Int] = [:]
    var timers = TimerHeap<RouterTimer>()
    /// Processes whose handshake was rejected and that have not exited yet.
    var rejectedPids: Set<pid_t> = []
    /// Remembered plugin choices (IntentRouter+Choice.swift); the host replaces this
    /// in-memory book with one backed by its state directory before routing starts.
    var choiceBook = ChoiceBook(store: nil, problem: "the host has not opened its choice store")
    private var stopping = false
    private var ownerThread: pthread_t?
    /// Checks a plugin's HELLO beyond the basics (new-style metadata); returns the problem.
    var validateMetadata: ((PluginSlot, JSON) -> String?)?
    /// Creates the flow for a multi-phase style, per style; a style without a factory
    /// (plain) keeps the plain path, which forwards frames without decoding them.
    var flowFactories: [HandlerStyle: (Exchange, PluginSlot) -> (any ExchangeFlow)?] = [:]
    /// Host intents (`ib.*`) added by extensions, beside ib.ping and ib.plugins.
    var controlHandlers: [String: (ControlRequest) -> Result<JSON, BusError>] = [:]
    /// Host intents (`ib.*`) that an extension answers through a plugin (ib.entities): the
    /// closure picks the plugin and the body, and the plugin's answer is relayed.
    var controlForwarders: [String: (ControlRequest) -> Result<ControlForward, BusError>] = [:]
    /// Counters for `ib.status` and `ib.metrics` (Stats/HostStats.swift), fed by `complete` and `reject`.
    var stats: HostStats?

    init(manifest: Manifest, logger: Logger, context: ZMQContext, frontend: ZMQSocket, backend: ZMQSocket,
         backendEndpoint: String, launcher: ChildProcessLauncher) throws(ZMQError) {
        self.manifest = manifest
        self.logger = logger
        self.frontend = frontend
        self.backend = backend
        self.backendEndpoint = backendEndpoint
        self.launcher = launcher
        mailbox = try Mailbox(context: context, name: "router")
        slots = manifest.plugins.enumerated().map { PluginSlot(index: $0.offset, spec: $0.element) }
        for slot in slots {
            for intent in slot.spec.intentsSupported {
                if slot.spec.enabled {
                    routes[intent, default: []].append(slot.index)
                } else {
                    disabledClaims[intent, default: []].append(slot.index)
                }
            }
        }
        for key in routes.keys { routes[key]!.sort { slots[$0].spec.id < slots[$1].spec.id } }
        for key in disabledClaims.keys { disabledClaims[key]!.sort { slots[$0].spec.id < slots[$1].spec.id } }
    }

    /// Hands an event to the router. Any thread.
    func post(_ event: RouterEvent) { mailbox.post(event) }

    /// Runs until a `.shutdown` event has been handled.
    func run() {
        ownerThread = pthread_self()
        for slot in slots where slot.spec.enabled { startPlugin(slot) }
        var poller = Poller([frontend, backend, mailbox.receiver])
        while true {
            let timeout: Int
            if let next = timers.nextDeadline {
                let now = MonotonicClock.now()
                timeout = next <= now ? 0 : Int((next - now + 999_999) / 1_000_000)
            } else {
                timeout = -1
            }
            let ready: [Bool]
            do { ready = try poller.poll(timeoutMs: timeout) } catch {
                logger.error("poll failed: \(error); stopping")
                break
            }
            if ready[0] { drain(frontend, handler: handleFrontend) }
            if ready[1] { drain(backend, handler: handleBackend) }
            if ready[2] {
                for event in mailbox.drain() { handle(event) }
                if stopping && slots.allSatisfy({ $0.pid == nil }) { break }
            }
            if !timers.isEmpty {
                for timer in timers.popDue(now: MonotonicClock.now()) { fire(timer) }
            }
        }
        mailbox.close()
    }

    var isStopping: Bool { stopping }
    var backendEndpointForPlugins: String { backendEndpoint }
    var launcherForPlugins: ChildProcessLauncher { launcher }

    func registerIdentity(_ identity: Data, index: Int) { identities[identity] = index }
    func unregisterIdentity(_ identity: Data) { identities.removeValue(forKey: identity) }
    func sendToBackend(_ frames: [Frame]) { sendRaw(backend, frames) }
    /// Starts an exchange that waited for its plugin's handshake.
    func beginWaiting(_ exchange: Exchange, _ slot: PluginSlot) { begin(exchange, slot) }

    /// Reads every message waiting on `socket`, so a burst costs one poll.
    private func drain(_ socket: ZMQSocket, handler: ([Frame]) -> Void) {
        var budget = 1024
        while budget > 0 {
            budget -= 1
            do {
                guard let frames = try socket.receive(dontWait: true) else { return }
                handler(frames)
            } catch {
                logger.error("receive failed: \(error)")
                return
            }
        }
    }

    // MARK: - Clients

    private func handleFrontend(_ frames: [Frame]) {
        guard let (envelope, rest) = RoutingEnvelope.split(frames) else { return }
        let msg: WireMessage
        do { msg = try WireMessage.decode(rest) } catch {
            let requestId = rest.count > 2 ? (Array(rest)[2].validUTF8 ?? "") : ""
            logger.warning("malformed message from a client: \(error.message)")
            sendToClient(envelope, WireMessage(kind: .error, requestId: requestId, intent: "",
                                               header: nil, body: error.busError.json))
            return
        }
        switch msg.kind {
        case .request: startRequest(envelope, msg)
        case .answer: clientAnswer(envelope, msg)
        case .cancel: clientCancel(envelope, msg)
        case .heartbeat: break
        default:
            let err = BusError(.badFrame, "clients may send REQUEST, ANSWER or CANCEL, not \(msg.kind.rawValue)")
            sendToClient(envelope, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                               header: nil, body: err.json))
        }
    }

    /// Sends an ERROR straight to a client that has no exchange (yet).
    func reject(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ error: BusError) {
        logger.info("request \(msg.requestId) for \(msg.intent): \(error)", [("request", msg.requestId)])
        stats?.rejected(error, intent: msg.intent)
        sendToClient(envelope, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                           header: nil, body: error.json))
    }

    private func startRequest(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        let key = ClientKey(identity: envelope.identity, requestId: msg.requestId)
        if byClient[key] != nil {
            return reject(envelope, msg, BusError(.duplicateRequest, "request id \"\(msg.requestId)\" is already open"))
        }
        var options = JSON.object([:])
        if msg.header.count > 0 {
            do { options = try msg.headerJSON() } catch {
                return reject(envelope, msg, BusError(.badFrame, "the header (frame 4) is \(error.message)"))
            }
            guard options.objectValue != nil else {
                return reject(envelope, msg, BusError(.badFrame, "the header (frame 4) must be a JSON object"))
            }
        }
        if msg.intent.hasPrefix("ib.") {
            return handleControl(envelope, msg, options: options)
        }
        guard let candidates = routes[msg.intent], !candidates.isEmpty else {
            if let disabled = disabledClaims[msg.intent] { return reject(envelope, msg, disabledError(msg.intent, disabled)) }
            return reject(envelope, msg, unknownIntentError(msg.intent))
        }
        var chosen = candidates[0]
        // Set when no default applies and the client must pick (the "choosing" stage):
        // the exchange then exists before its plugin is known.
        var question: JSON?
        switch choosePlugin(msg.intent, candidates: candidates, options: options) {
        case .plugin(let index): chosen = index
        case .ask(let prompt): question = prompt
        case .failure(let error): return reject(envelope, msg, error)
        }
        let slot = slots[chosen]
        if question == nil, let error = admissionError(slot, intent: msg.intent, options: options) {
            return reject(envelope, msg, error)
        }
        let exchange = openExchange(envelope, msg, pluginIndex: chosen, options: options,
                                    header: pluginHeader(options: options), body: msg.body)
        if let question { return askForPlugin(exchange, candidates: candidates, prompt: question) }
        dispatch(exchange, slot, received: msg)
    }

    /// Registers a new exchange for a client request, under a fresh host request id.
    func openExchange(_ envelope: RoutingEnvelope, _ msg: WireMessage, pluginIndex: Int, options: JSON,
                      header: Frame, body: Frame) -> Exchange {
        let exchange = Exchange(hostId: exchanges.nextId(), client: envelope, clientRequestId: msg.requestId,
                                intent: msg.intent, pluginIndex: pluginIndex,
                                timeout: requestTimeout(slots[pluginIndex], options: options), options: options)
        exchange.pendingHeader = header
        exchange.pendingBody = body
        exchanges.insert(exchange)
        byClient[exchange.clientKey] = exchange.hostId
        return exchange
    }

    /// Why `slot` can't take a request for `intent` now (restricted without the right
    /// credential, unavailable, full), or nil.
    func admissionError(_ slot: PluginSlot, intent: String, options: JSON) -> BusError? {
        if slot.spec.intentsRestrictedWhileLocked.contains(intent) {
            let given = options["credential"]?.stringValue
            guard let expected = manifest.host.clientCredential, let given, constantTimeEquals(given, expected) else {
                let why = manifest.host.clientCredential == nil
                    ? "no client credential is configured in the host (host.client_credential)"
                    : (options["credential"] == nil ? "the request carries no credential" : "the credential is wrong")
                return BusError(.authenticationRequired,
                    "\(intent) is restricted while locked (\(slot.spec.id)): authentication is required; \(why)")
            }
        }
        if case .failed(let reason) = slot.state {
            if !retryFailedSpawn(slot) {
                return BusError(.pluginUnavailable, "plugin \(slot.spec.id) is unavailable: \(reason)",
                                details: ["plugin": .string(slot.spec.id)])
            }
        }
        if slot.inFlight + slot.waiting.count >= slot.spec.maxInFlight {
            return BusError(.busy, "plugin \(slot.spec.id) has \(slot.spec.maxInFlight) requests in flight; try again later",
                            details: ["plugin": .string(slot.spec.id)])
        }
        return nil
    }

    /// The plugin timeout for one request: the header's `timeout_ms`, else the manifest's.
    func requestTimeout(_ slot: PluginSlot, options: JSON) -> UInt64 {
        if let ms = options["timeout_ms"]?.intValue, ms > 0 { return UInt64(ms) * 1_000_000 }
        return slot.spec.timeout.nanoseconds
    }

    /// Sends an admitted exchange to its plugin, or queues it until the plugin is ready.
    /// `received` is the client's REQUEST, forwarded itself when the plugin is ready.
    func dispatch(_ exchange: Exchange, _ slot: PluginSlot, received msg: WireMessage? = nil) {
        armDeadline(exchange)
        if slot.identity != nil {
            begin(exchange, slot, received: msg)
        } else {
            slot.waiting.append(exchange.hostId)
        }
    }

    /// Sends the first message of an exchange to its (ready) plugin. On the plain path the
    /// client's `received` message, when given, is forwarded itself (its frames move on).
    private func begin(_ exchange: Exchange, _ slot: PluginSlot, received: WireMessage? = nil) {
        if !exchange.delivered { slot.inFlight += 1 }
        exchange.delivered = true
        if exchange.flow == nil, let factory = flowFactories[slot.style(for: exchange.intent)],
           let flow = factory(exchange, slot) {
            exchange.flow = flow
        }
        if let flow = exchange.flow {
            exchange.pendingHeader = nil
            flow.start(exchange, self)
            return
        }
        let header = exchange.pendingHeader ?? Frame()
        let body = exchange.pendingBody ?? Frame()
        exchange.pendingHeader = nil
        exchange.pendingBody = nil
        let message = received ?? WireMessage(kind: .request, intent: exchange.intent)
        message.requestId = exchange.wireId
        message.header = header
        message.body = body
        sendToPlugin(slot, message, exchange: exchange)
    }

    /// The delivery header for the plugin: only what the plugin may see (never the
    /// credential). Empty on the fast path.
    private func pluginHeader(options: JSON) -> Frame {
        guard let client = options["client"]?.stringValue else { return Frame() }
        return Frame(data: JSON.object(["client": .string(client)]).canonicalData)
    }

    private func clientAnswer(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        guard let hostId = byClient[ClientKey(identity: envelope.identity, requestId: msg.requestId)],
              let exchange = exchanges[hostId], exchange.awaitingClient else {
            return reject(envelope, msg, BusError(.conversationExpired,
                "no open question in conversation \"\(msg.requestId)\": it has ended, expired, or never asked anything"))
        }
        exchange.awaitingClient = false
        if exchange.choosing != nil { return pluginChoiceAnswer(msg, exchange) }
        armDeadline(exchange)
        if let flow = exchange.flow {
            flow.clientAnswer(msg, exchange, self)
            return
        }
        let slot = slots[exchange.pluginIndex]
        sendToPlugin(slot, WireMessage(kind: .answer, requestId: exchange.wireId, intent: exchange.intent,
                                       header: Frame(), body: msg.body), exchange: exchange)
    }

    private func clientCancel(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        guard let hostId = byClient[ClientKey(identity: envelope.identity, requestId: msg.requestId)],
              let exchange = exchanges[hostId] else {
            return  // already finished: the client has its final answer
        }
        cancelAtPlugin(exchange, reason: "cancelled by the client")
        fail(exchange, BusError(.cancelled, "the client cancelled the request"))
    }

    // MARK: - Plugins

    private func handleBackend(_ frames: [Frame]) {
        guard let (envelope, rest) = RoutingEnvelope.split(frames) else { return }
        let msg: WireMessage
        do { msg = try WireMessage.decode(rest) } catch {
            let who = identities[envelope.identity].map { slots[$0].spec.id } ?? "an unknown peer"
            logger.warning("malformed message from \(who) on the backend: \(error.message)")
            return
        }
        guard let index = identities[envelope.identity] else {
            if msg.kind == .hello { return handshake(envelope, msg) }
            logger.warning("\(msg.kind.rawValue) from a peer that has not said HELLO; rejected")
            sendRaw(backend, envelope.copyFrames() + WireMessage(kind: .reject, header: nil,
                body: ["code": "handshake_required", "reason": "say HELLO first"]).frames)
            return
        }
        let slot = slots[index]
        switch msg.kind {
        case .reply, .error, .prompt, .progress:
            guard let exchange = exchanges[wireId: msg.requestId], exchange.pluginIndex == index, exchange.delivered else {
                logger.debug("\(msg.kind.rawValue) for request \(msg.requestId) from \(slot.spec.id) arrived after it ended; dropped")
                return
            }
            if let flow = exchange.flow {
                flow.pluginMessage(msg, exchange, self)
            } else {
                relayPlain(msg, exchange)
            }
        case .disconnect:
            logger.info("plugin \(slot.spec.id) said DISCONNECT")
            identities.removeValue(forKey: envelope.identity)
            if let pid = slot.pid { slot.state = .starting(pid: pid) }
            failInFlight(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) disconnected while handling this request",
                                        details: ["plugin": .string(slot.spec.id)]))
        case .hello:
            handshake(envelope, msg)
        case .heartbeat:
            break
        default:
            logger.warning("plugin \(slot.spec.id) sent \(msg.kind.rawValue), which plugins may not send")
        }
    }

    /// The plain path: forward the plugin's message itself to the client, under the client's
    /// request id and intent, moving its frames.
    private func relayPlain(_ msg: WireMessage, _ exchange: Exchange) {
        msg.requestId = exchange.clientRequestId
        msg.intent = exchange.intent
        switch msg.kind {
        case .reply, .error:
            complete(exchange, msg)
        case .prompt:
            exchange.awaitingClient = true
            armConversationExpiry(exchange)
            sendToClient(exchange.client, msg)
        case .progress:
            guard !exchange.client.isRequestReply else { return }
            sendToClient(exchange.client, msg)
        default:
            break
        }
    }

    // MARK: - Ending exchanges

    /// Sends the final message and forgets the exchange.
    func complete(_ exchange: Exchange, _ final: WireMessage) {
        guard exchanges.remove(exchange.hostId) != nil else { return }
        byClient.removeValue(forKey: exchange.clientKey)
        let slot = slots[exchange.pluginIndex]
        if exchange.delivered { slot.inFlight -= 1 }
        if !exchange.delivered, let i = slot.waiting.firstIndex(of: exchange.hostId) { slot.waiting.remove(at: i) }
        exchange.generation += 1
        stats?.completed(plugin: exchange.choosing == nil ? exchange.pluginIndex : nil, final: final, startedAt: exchange.startedAt)
        sendToClient(exchange.client, final)
    }

    func fail(_ exchange: Exchange, _ error: BusError) {
        let target = exchange.choosing == nil ? slots[exchange.pluginIndex].spec.id : "(no plugin chosen yet)"
        logger.info("request \(exchange.clientRequestId) (\(exchange.intent)) → \(target): \(error)",
                    [("request", exchange.clientRequestId)])
        complete(exchange, WireMessage(kind: .error, requestId: exchange.clientRequestId, intent: exchange.intent,
                                       header: nil, body: error.json))
    }

    func cancelAtPlugin(_ exchange: Exchange, reason: String) {
        let slot = slots[exchange.pluginIndex]
        guard exchange.delivered, slot.identity != nil else { return }
        sendToPlugin(slot, WireMessage(kind: .cancel, requestId: exchange.wireId, intent: exchange.intent,
                                       header: nil, body: ["reason": .string(reason)]), exchange: nil)
    }

    func failInFlight(_ slot: PluginSlot, _ error: BusError) {
        for exchange in exchanges.all where exchange.delivered && exchange.pluginIndex == slot.index {
            fail(exchange, error)
        }
        slot.inFlight = 0
    }

    func failWaiting(_ slot: PluginSlot, _ error: BusError) {
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = exchanges[hostId] { fail(exchange, error) }
        }
    }

    // MARK: - Timers

    func armDeadline(_ exchange: Exchange) {
        exchange.generation += 1
        timers.schedule(at: MonotonicClock.now() + exchange.timeout,
                        .requestDeadline(hostId: exchange.hostId, generation: exchange.generation))
        compactTimersIfStale()
    }

    func armConversationExpiry(_ exchange: Exchange) {
        exchange.generation += 1
        timers.schedule(at: MonotonicClock.now() + manifest.host.conversationTimeout.nanoseconds,
                        .conversationExpiry(hostId: exchange.hostId, generation: exchange.generation))
        compactTimersIfStale()
    }

    /// A finished request leaves its deadline in the heap until it would fire. Under load
    /// that is one stale entry per request for a whole timeout: at 70,000 requests/s and a
    /// 10 s timeout, hundreds of thousands of entries and tens of MB (docs/performance.md).
    /// Dropping them once they outnumber the open requests keeps the heap proportional to
    /// the work in progress, at an amortised O(1) per request.
    private func compactTimersIfStale() {
        guard timers.count > 4_096 + 4 * exchanges.count else { return }
        timers.compact { timer in
            if case .requestDeadline(let hostId, let generation) = timer {
                return exchanges[hostId]?.generation == generation
            }
            if case .conversationExpiry(let hostId, let generation) = timer {
                return exchanges[hostId]?.generation == generation
            }
            return true  // plugin timers are few and check their own generation
        }
    }

    private func fire(_ timer: RouterTimer) {
        switch timer {
        case .requestDeadline(let hostId, let generation):
            guard let exchange = exchanges[hostId], exchange.generation == generation else { return }
            let slot = slots[exchange.pluginIndex]
            let waited = Duration.nanoseconds(Int64(exchange.timeout))
            let why = exchange.delivered
                ? "plugin \(slot.spec.id) did not answer within \(waited.humanText)"
                : "plugin \(slot.spec.id) did not become ready within \(waited.humanText) (\(slot.stateName)\(slot.lastError.map { ": \($0)" } ?? ""))"
            cancelAtPlugin(exchange, reason: "timeout")
            fail(exchange, BusError(.timeout, why, details: ["plugin": .string(slot.spec.id),
                                                             "timeout_ms": .int(Int64(exchange.timeout / 1_000_000))]))
        case .conversationExpiry(let hostId, let generation):
            guard let exchange = exchanges[hostId], exchange.generation == generation else { return }
            cancelAtPlugin(exchange, reason: "conversation expired")
            fail(exchange, BusError(.conversationExpired,
                "nobody answered the question within \(manifest.host.conversationTimeout.humanText); the conversation has expired"))
        case .restart(let index):
            let slot = slots[index]
            if case .backoff = slot.state, !stopping { startPlugin(slot) }
        case .handshakeDeadline(let index, let generation):
            let slot = slots[index]
            guard slot.spawnGeneration == generation, case .starting(let pid) = slot.state else { return }
            slot.lastError = "no HELLO within 10 s of starting"
            logger.error("plugin \(slot.spec.id) (pid \(pid)) did not say HELLO within 10 s; killing it")
            launcher.signal(pid, SIGKILL)
        case .stopPlugins(let signal):
            for slot in slots {
                guard let pid = slot.pid else { continue }
                logger.warning("plugin \(slot.spec.id) (pid \(pid)) is still running; sending \(signal == SIGKILL ? "SIGKILL" : "SIGTERM")")
                launcher.signal(pid, signal)
            }
        case .stopRejected(let pid):
            guard rejectedPids.remove(pid) != nil else { return }
            logger.warning("plugin process \(pid) is still running 2 s after its handshake was rejected; sending SIGTERM")
            launcher.signal(pid, SIGTERM)
        }
    }

    // MARK: - Events

    private func handle(_ event: RouterEvent) {
        switch event {
        case .pluginExited(let index, let pid, let status):
            rejectedPids.remove(pid)  // reaped: the pid may be reused, never signal it again
            pluginExited(slots[index], pid: pid, status: status)
        case .shutdown:
            beginShutdown()
        }
    }

    private func beginShutdown() {
        guard !stopping else { return }
        stopping = true
        logger.info("shutting down: answering open requests and stopping plugins")
        for exchange in exchanges.all {
            cancelAtPlugin(exchange, reason: "host shutting down")
            fail(exchange, BusError(.shuttingDown, "the host is shutting down"))
        }
        // Graceful first: DISCONNECT lets a plugin finish and exit on its own. Whatever is
        // still running after 1 s gets SIGTERM, and after 3 s SIGKILL.
        for slot in slots {
            if let identity = slot.identity {
                sendRaw(backend, [Frame(data: identity)] + WireMessage(kind: .disconnect, header: nil, body: nil).frames)
            } else if let pid = slot.pid {
                launcher.signal(pid, SIGTERM)  // not connected: it can't hear DISCONNECT
            }
        }
        for pid in rejectedPids { launcher.signal(pid, SIGTERM) }
        let now = MonotonicClock.now()
        timers.schedule(at: now + 1_000_000_000, .stopPlugins(signal: SIGTERM))
        timers.schedule(at: now + 3_000_000_000, .stopPlugins(signal: SIGKILL))
    }

    // MARK: - Sending

    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        // The identity goes out from its bytes; a REQ client also needs its empty delimiter.
        sendRaw(frontend, to: envelope.identity, msg.frames(after: envelope.isRequestReply ? [Frame()] : []),
                isClient: true)
    }

    /// Sends to a plugin; a full pipe ends the exchange with `busy` instead of losing it.
    func sendToPlugin(_ slot: PluginSlot, _ msg: WireMessage, exchange: Exchange?) {
        guard let identity = slot.identity else {
            if let exchange { fail(exchange, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is not connected")) }
            return
        }
        do {
            if try backend.send(to: identity, msg.frames, dontWait: true) { return }
            if let exchange {
                fail(exchange, BusError(.busy, "plugin \(slot.spec.id) is not reading its messages fast enough; try again later"))
            }
        } catch {
            logger.warning("could not send \(msg.kind.rawValue) to plugin \(slot.spec.id): \(error)")
            if let exchange {
                fail(exchange, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is not reachable: \(error.message)"))
            }
        }
    }

    private func sendRaw(_ socket: ZMQSocket, to identity: Data? = nil, _ frames: [Frame], isClient: Bool = false) {
        do {
            let queued = if let identity { try socket.send(to: identity, frames, dontWait: true) }
                         else { try socket.send(frames, dontWait: true) }
            if !queued {
                logger.warning("a \(isClient ? "client" : "plugin") is not reading; message dropped at its high-water mark")
            }
        } catch let error where error.isHostUnreachable {
            logger.info("the \(isClient ? "client" : "plugin") has gone away; its message was dropped")
        } catch {
            logger.warning("send failed: \(error)")
        }
    }

    // MARK: - Helpers

    /// Every plugin claiming `intent` is disabled: say so, rather than unknown_intent,
    /// since the intent is declared and enabling a plugin would serve it.
    func disabledError(_ intent: String, _ disabled: [Int]) -> BusError {
        let ids = disabled.map { slots[$0].spec.id }
        let who = ids.count == 1 ? "plugin \(ids[0]), the only one claiming \(intent), is" : "plugins \(ids.joined(separator: ", ")), the only ones claiming \(intent), are"
        return BusError(.pluginUnavailable, "\(who) disabled in the manifest (enabled: false)",
                        details: ["plugin": .string(ids[0]), "disabled": .array(ids.map { .string($0) })])
    }

    private func unknownIntentError(_ intent: String) -> BusError {
        let known = routes.keys.sorted()
        var message = "no plugin claims intent \"\(intent)\""
        if let near = known.first(where: { $0.lowercased() == intent.lowercased() }) {
            message += "; did you mean \"\(near)\"?"
        }
        return BusError(.unknownIntent, message, details: ["known_intents": .array(known.map { .string($0) })])
    }
}

extension IntentRouter: FlowOperations {
    func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, body: JSON?) {
        armDeadline(exchange)
        sendToPlugin(slots[exchange.pluginIndex], WireMessage(kind: kind, requestId: exchange.wireId, intent: exchange.intent,
                                                            header: header, body: body), exchange: exchange)
    }

    func promptClient(_ exchange: Exchange, prompt: JSON) {
        exchange.awaitingClient = true
        armConversationExpiry(exchange)
        sendToClient(exchange.client, WireMessage(kind: .prompt, requestId: exchange.clientRequestId,
                                                  intent: exchange.intent, header: nil, body: prompt))
    }

    func progressToClient(_ exchange: Exchange, body: JSON) {
        guard !exchange.client.isRequestReply else { return }
        sendToClient(exchange.client, WireMessage(kind: .progress, requestId: exchange.clientRequestId,
                                                  intent: exchange.intent, header: nil, body: body))
    }

    func finish(_ exchange: Exchange, header: JSON, body: JSON) {
        complete(exchange, WireMessage(kind: .reply, requestId: exchange.clientRequestId, intent: exchange.intent,
                                       header: header, body: body))
    }

    func pluginSpec(of exchange: Exchange) -> PluginSpec { slots[exchange.pluginIndex].spec }
}

/// Compares secrets without leaking where they differ through timing.
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    var diff = UInt8(x.count == y.count ? 0 : 1)
    for i in 0..<max(x.count, y.count) {
        diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
    }
    return diff == 0
}

// MARK: - Host intents answered by a plugin

extension IntentRouter {
    /// Sends a host intent that a `controlForwarders` entry routed to a plugin, as an
    /// exchange on the plain path: the plugin's REPLY or ERROR is relayed, with the usual
    /// timeout, busy and crash handling. (Kept apart from `startRequest` on purpose.)
    func forwardControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON, to forward: ControlForward) {
        let slot = slots[forward.pluginIndex]
        if let error = admissionError(slot, intent: msg.intent, options: options) {
            return reject(envelope, msg, error)
        }
        let exchange = openExchange(envelope, msg, pluginIndex: forward.pluginIndex, options: options,
                                    header: Frame(), body: Frame(data: forward.body.canonicalData))
        dispatch(exchange, slot)
    }
}
