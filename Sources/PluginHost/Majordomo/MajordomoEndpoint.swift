import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// The host's Majordomo endpoint (`host.mdp`, docs/mdp.md): one ROUTER socket for MDP
/// clients (MDPC01) and workers (MDPW01), owned by `RouterShell` and polled with its
/// other sockets.
///
/// - A client REQUEST becomes an IB1 REQUEST from a stand-in client
///   (`MajordomoClients`); what the core answers becomes its one MDP reply.
/// - `mmi.*` requests (RFC 8) are answered here.
/// - Worker commands go to `MajordomoBroker`; an `mdp_worker` entry is one stand-in
///   plugin connection to the core.
///
/// The shell hands back what the core sends to the stand-in identities (`owns`). Calls
/// into the core that could arrive while the core is itself sending (a PROMPT's CANCEL,
/// a worker's reply, a stand-in's coming or going) wait in `deferred` until `flush()`,
/// which the shell calls after each round of events: the core is never re-entered.
///
/// Threading: the router thread only, like the shell.
final class MajordomoEndpoint: MajordomoBrokerOutput {
    private enum Deferred {
        case client([Frame])
        case plugin([Frame])
        case attach(Int)
        case detach(Int)
    }

    let socket: ZMQSocket
    private unowned let core: any MajordomoCore
    private let logger: Logger
    private let identities = MajordomoIdentity()
    private let bodies: MajordomoFrames
    private let settings: MajordomoSettings
    private let clients: MajordomoClients
    /// What MDP clients got, for ib.status (the core's `majordomoCounters`).
    let counters: MajordomoCounters
    private(set) var broker: MajordomoBroker!
    private var deferred: [Deferred] = []
    /// Whether the socket is ipc (local: a stand-in client may act without a key).
    private let local: Bool
    /// tcp with CURVE: every peer has a key, and its User-Id says who it is.
    private let keyed: Bool
    private var lastDropReport: UInt64 = 0

    init(socket: ZMQSocket, settings: MajordomoSettings, core: any MajordomoCore, logger: Logger) {
        self.socket = socket
        self.core = core
        self.logger = logger
        self.settings = settings
        local = settings.endpoint.hasPrefix("ipc://")
        keyed = settings.endpoint.hasPrefix("tcp://") && !core.manifest.host.insecure
        bodies = MajordomoFrames(identities: identities)
        clients = MajordomoClients(identities: identities, bodies: bodies)
        counters = MajordomoCounters(queueLimit: settings.queueLimit)
        broker = MajordomoBroker(manifest: core.manifest, settings: settings, logger: logger, bodies: bodies, output: self)
        broker.requireKeys = keyed
        core.majordomoCounters = counters
    }

    /// The service-name prefix that asks for the envelope form of the reply, whatever
    /// `mdp_reply` says (docs/mdp.md, "Bodies").
    static let envelopePrefix = "envelope:"

    /// Whether the core addressed one of the endpoint's stand-ins.
    @inline(__always) func owns(_ identity: Data) -> Bool { identities.owns(identity) }

    var nextDeadline: UInt64? { [broker.nextDeadline, clients.nextDeadline].compactMap { $0 }.min() }

    func fireDue() {
        broker.fireDue()
        counters.refusedReadies = broker.refusals.refused
        counters.workers = broker.totalWorkers
    }

    // MARK: - The socket

    /// Reads every waiting message (at most 1024 a round, like the shell's sockets).
    func drain() {
        for _ in 0..<1_024 {
            let frames: [Frame]
            do {
                // Identity, "", protocol, command, address, "", then the body: more frames
                // than that are one empty frame (the message is then refused).
                guard let received = try socket.receive(dontWait: true, maxFrames: 6 + MajordomoMessage.maximumBodyFrames) else { break }
                frames = received
            } catch {
                logger.error("MDP receive failed: \(error)")
                break
            }
            handle(frames)
        }
        counters.refusedReadies = broker.refusals.refused
        flush()
    }

    private func handle(_ frames: [Frame]) {
        guard frames.count > 1 else { return }
        let peer = frames[0].data
        let msg: MajordomoMessage
        do { msg = try MajordomoMessage.parse(frames.dropFirst()) } catch {
            logger.warning("dropped a message on the MDP socket: \(error)")
            return broker.invalid(peer, error)
        }
        // tcp with CURVE: every message's User-Id, so that a connection reusing another's
        // routing id is never taken for it (`bindClient`, Routing/Pipeline/RequestPipeline+Plugins.swift).
        let user = keyed ? frames[1].property("User-Id") : nil
        guard case .request(let serviceFrame, let body) = msg else {
            return broker.workerMessage(peer, msg, user: user)
        }
        let service = serviceFrame.data
        counters.requests += 1
        func reply(_ code: ErrorCode, _ message: String, details: JSON = .object([:])) {
            counters.error(code.rawValue)
            let error = BusError(code, message, details: details)
            send(peer, MajordomoMessage.clientReply(service: service, body: JSON.object(["status": "error", "error": error.json]).canonicalData))
        }
        guard var name = serviceFrame.validUTF8, !name.isEmpty, name.utf8.count <= WireProtocol.maxNameLength else {
            return reply(.badFrame, "the service name (frame 2) must be 1 to \(WireProtocol.maxNameLength) bytes of UTF-8")
        }
        var form = settings.reply
        if name.hasPrefix(Self.envelopePrefix), name.count > Self.envelopePrefix.count {
            name.removeFirst(Self.envelopePrefix.count)
            form = .envelope
        }
        // `Service?area=Kitchen&satellite=s1`: the request's context (docs/mdp.md), which
        // MDP has no header for; the reply still names the service as the client sent it.
        var header = Frame()
        if let question = name.firstIndex(of: "?") {
            switch MajordomoContext.parse(name[name.index(after: question)...]) {
            case .success(let context): header = Frame(data: JSON.object(["context": .object(context)]).canonicalData)
            case .failure(let problem): return reply(.badFrame, problem.message)
            }
            name = String(name[..<question])
            guard !name.isEmpty else { return reply(.badFrame, "the service name (frame 2) has no intent before its \"?\"") }
        }
        if let problem = rightsProblem(user, intent: name) { return reply(.forbidden, problem) }
        if name.hasPrefix("mmi.") {
            counters.replies += 1
            return send(peer, mmi(name, service: service, body: body, user: user))
        }
        if settings.onlyIdempotent, !name.hasPrefix("ib."), case let plugins = core.majordomoRoutes.notIdempotent(name), !plugins.isEmpty {
            return reply(.forbidden, "\(name) is not marked idempotent by \(plugins.joined(separator: ", ")) (idempotent in the manifest), and this host takes only idempotent intents from MDP clients (mdp_only_idempotent): an MDP/0.1 client resends a request that is slower than its timeout",
                         details: ["reason": "not_idempotent", "plugins": .array(plugins.map { .string($0) })])
        }
        guard body.count <= MajordomoMessage.maximumBodyFrames else {
            return reply(.badFrame, "a request has at most \(MajordomoMessage.maximumBodyFrames) body frames")
        }
        let parameters: Frame
        if core.majordomoRoutes.workersOnly(name) {
            // A worker gets the client's frames as they are: packed to cross the core.
            parameters = bodies.pack(body)
        } else if body.count <= 1 {
            // Opaque too: a plain handler gets these bytes; a typed one says it needs JSON.
            parameters = body.first ?? Frame()
        } else {
            return reply(.badFrame, "\(name) is handled by a plugin, which takes one body frame (got \(body.count)); only the services of mdp_worker entries take several")
        }
        // RFC 7 brokers queue: a request for a plugin at its max_in_flight (or behind
        // others that wait) waits here, up to mdp_queue of them, for its plugin's timeout.
        if clients.hasQueued(name) || core.majordomoRoutes.full(name), let claimant = core.majordomoRoutes.claimant(name) {
            guard clients.queuedCount < settings.queueLimit else {
                return reply(.busy, "plugin \(claimant.plugin) is at its max_in_flight and \(settings.queueLimit) MDP requests wait already (mdp_queue); try again later",
                             details: ["plugin": .string(claimant.plugin), "limit": .int(Int64(settings.queueLimit)), "setting": "mdp_queue"])
            }
            let (id, request) = clients.request(peer: peer, user: user, service: name, serviceFrame: service, header: header, body: parameters, form: form)
            core.majordomoGrant(request[0].data, user: user, local: local)
            counters.queuedTotal += 1
            clients.enqueue(request, id: id, intent: name, plugin: claimant.plugin, due: MonotonicClock.now() &+ claimant.timeout)
            counters.queued = clients.queuedCount
            return
        }
        let (_, request) = clients.request(peer: peer, user: user, service: name, serviceFrame: service, header: header, body: parameters, form: form)
        core.majordomoGrant(request[0].data, user: user, local: local)
        core.clientFrames(request)
    }

    /// What an MDP client may call. Over tcp with CURVE it is the `host.clients` entry its
    /// key names, and may call what its grant allows (the core checks the rest when the
    /// frontend is keyed too); without a key (ipc, or `insecure`), what `mdp_intents`
    /// allows: by default every intent but the `ib.*` admin intents.
    private func rightsProblem(_ user: String?, intent: String) -> String? {
        guard keyed else {
            if intent.hasPrefix("mmi.") || settings.allowsKeyless(intent) { return nil }
            let allowed = settings.intents.map { "allowed: \($0.joined(separator: ", "))" } ?? "by default every intent but the ib.* admin intents"
            return "MDP clients may not call \(intent) (host.mdp_intents; \(allowed))"
        }
        guard let user, user.hasPrefix("client:") else {
            return "this connection's key is not a client's (host.clients); MDP requests need one"
        }
        let name = String(user.dropFirst("client:".count))
        guard let grant = core.manifest.host.clients.first(where: { $0.name == name }) else { return "client \(name) is not in host.clients" }
        if intent.hasPrefix("mmi.") || intent == "ib.ping" || grant.allows(intent) { return nil }
        return "client \(name) may not call \(intent) (allowed: \(grant.intents.joined(separator: ", ")))"
    }

    /// MMI (RFC 8): `mmi.service` answers "200" when something serves the name in the
    /// body and this client may call it, else "404"; any other `mmi.*` name answers "501".
    private func mmi(_ name: String, service: Data, body: [Frame], user: String?) -> [Frame] {
        var code = "501"
        if name == "mmi.service" {
            let asked = body.first?.validUTF8 ?? ""
            let allowed = !asked.hasPrefix("mmi.") && rightsProblem(user, intent: asked) == nil
            code = allowed && core.majordomoRoutes.serves(asked, workers: broker.workerCount) ? "200" : "404"
        }
        return MajordomoMessage.clientReply(service: service, body: Data(code.utf8))
    }

    private func send(_ peer: Data, _ frames: [Frame]) {
        do {
            if try socket.send(to: peer, frames, dontWait: true) { return }
            let now = MonotonicClock.now()
            if now &- lastDropReport > 1_000_000_000 {
                lastDropReport = now
                logger.warning("an MDP peer is not reading; a message for it was dropped")
            }
        } catch let error where error.isHostUnreachable {
            logger.info("an MDP peer has gone away; its message was dropped")
        } catch {
            logger.warning("MDP send failed: \(error)")
        }
    }

    static func error(_ code: ErrorCode, _ message: String) -> JSON {
        ["status": "error", "error": BusError(code, message).json]
    }

    // MARK: - What the core sends to the stand-ins (from the shell)

    /// A message the core sent to a stand-in client.
    func sendToClient(_ identity: Data, _ msg: WireMessage) {
        let outcome = clients.fromCore(msg)
        if case .none = outcome { return }
        if msg.kind == .reply {
            counters.replies += 1
        } else {
            counters.error(msg.kind == .prompt ? "prompt_required" : ((try? msg.bodyJSON())?["code"]?.stringValue ?? "internal"))
        }
        switch outcome {
        case .none:
            break
        case .reply(let peer, let frames):
            send(peer, frames)
        case .replyAndCancel(let peer, let frames, let cancel):
            send(peer, frames)
            deferred.append(.client(cancel))
        }
    }

    /// Frames the core sent to an `mdp_worker` entry's stand-in connection.
    func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome {
        let msg: WireMessage
        do { msg = try WireMessage.decode(frames[...]) } catch {
            return .unreachable("not an IB1 message: \(error.message)")
        }
        broker.fromCore(slot: identities.slotIndex(identity), msg)
        return .sent
    }

    /// Hands the core what waited for it, until nothing does, then the queued requests
    /// whose plugin has room now.
    func flush() {
        flushDeferred()
        guard clients.queuedCount > 0 else { return }
        let expired = clients.dequeue(now: MonotonicClock.now(), full: { [core] in core.majordomoRoutes.full($0) }) { core.clientFrames($0) }
        for (peer, frames) in expired {
            counters.error(ErrorCode.timeout.rawValue)
            send(peer, frames)
        }
        counters.queued = clients.queuedCount
        flushDeferred()
    }

    private func flushDeferred() {
        while !deferred.isEmpty {
            let batch = deferred
            deferred.removeAll()
            for item in batch {
                switch item {
                case .client(let frames): core.clientFrames(frames)
                case .plugin(let frames): core.pluginFrames(frames)
                case .attach(let slot): core.majordomoAttach(slot, identity: identities.workers(slot: slot))
                case .detach(let slot): core.majordomoDetach(slot)
                }
            }
        }
    }

    // MARK: - MajordomoBrokerOutput

    func sendToWorker(_ identity: Data, _ frames: [Frame]) { send(identity, frames) }

    func toCore(slot: Int, _ msg: WireMessage) {
        deferred.append(.plugin(msg.frames(after: [Frame(data: identities.workers(slot: slot))])))
    }

    func attach(slot: Int) { deferred.append(.attach(slot)) }

    func detach(slot: Int) { deferred.append(.detach(slot)) }

    func now() -> UInt64 { MonotonicClock.now() }
}
