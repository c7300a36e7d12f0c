import Foundation
import IntentBus

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
    private unowned let core: RouterCore
    private let logger: Logger
    private let identities = MajordomoIdentity()
    private let clients: MajordomoClients
    private(set) var broker: MajordomoBroker!
    private var deferred: [Deferred] = []
    /// Whether the socket is ipc (local: a stand-in client may act without a key).
    private let local: Bool
    /// tcp with CURVE: every peer has a key, and its User-Id says who it is.
    private let keyed: Bool
    private var lastDropReport: UInt64 = 0

    init(socket: ZMQSocket, settings: MajordomoSettings, core: RouterCore, logger: Logger) {
        self.socket = socket
        self.core = core
        self.logger = logger
        local = settings.endpoint.hasPrefix("ipc://")
        keyed = settings.endpoint.hasPrefix("tcp://") && !core.manifest.host.insecure
        clients = MajordomoClients(identities: identities)
        broker = MajordomoBroker(manifest: core.manifest, settings: settings, logger: logger, output: self)
        broker.requireKeys = keyed
    }

    /// Whether the core addressed one of the endpoint's stand-ins.
    @inline(__always) func owns(_ identity: Data) -> Bool { identities.owns(identity) }

    var nextDeadline: UInt64? { broker.nextDeadline }

    func fireDue() { broker.fireDue() }

    // MARK: - The socket

    /// Reads every waiting message (at most 1024 a round, like the shell's sockets).
    func drain() {
        for _ in 0..<1_024 {
            let frames: [Frame]
            do {
                // Identity, "", protocol, service or command, and a few more: a body of more
                // than one frame is refused anyway.
                guard let received = try socket.receive(dontWait: true, maxFrames: 8) else { break }
                frames = received
            } catch {
                logger.error("MDP receive failed: \(error)")
                break
            }
            handle(frames)
        }
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
        // routing id is never taken for it (Routing/RouterCore+ConnectionBinding.swift).
        let user = keyed ? frames[1].property("User-Id") : nil
        guard case .request(let serviceFrame, let body) = msg else {
            return broker.workerMessage(peer, msg, user: user)
        }
        let service = serviceFrame.data
        func reply(_ json: JSON) { send(peer, MajordomoMessage.clientReply(service: service, body: json.canonicalData)) }
        guard let name = serviceFrame.validUTF8, !name.isEmpty, name.utf8.count <= WireProtocol.maxNameLength else {
            return reply(Self.error(.badFrame, "the service name (frame 2) must be 1 to \(WireProtocol.maxNameLength) bytes of UTF-8"))
        }
        if keyed, let problem = rightsProblem(user, intent: name) { return reply(Self.error(.forbidden, problem)) }
        if name.hasPrefix("mmi.") { return send(peer, mmi(name, service: service, body: body)) }
        guard body.count <= 1 else {
            return reply(Self.error(.badFrame, "the request body is one frame: the parameters as a JSON object (got \(body.count) frames)"))
        }
        let parameters = body.first ?? Frame()
        if parameters.count > 0 {
            // The core's plain path does not read bodies; an MDP client's is checked here so
            // that a wrong one is answered plainly, whoever serves the intent.
            do {
                guard case .object = try JSON.parse(parameters.data) else {
                    return reply(Self.error(.invalidParameters, "the request body must be a JSON object of parameters"))
                }
            } catch {
                return reply(Self.error(.invalidParameters, "the request body must be a JSON object of parameters; it is \(error.message)"))
            }
        }
        let request = clients.request(peer: peer, user: user, service: name, serviceFrame: service, body: parameters)
        core.majordomoGrant(request[0].data, user: user, local: local)
        core.clientFrames(request)
    }

    /// Over tcp with CURVE, a client is the `host.clients` entry its key names, and may
    /// call what its grant allows (the core checks the rest when the frontend is keyed too).
    private func rightsProblem(_ user: String?, intent: String) -> String? {
        guard let user, user.hasPrefix("client:") else {
            return "this connection's key is not a client's (host.clients); MDP requests need one"
        }
        let name = String(user.dropFirst("client:".count))
        guard let grant = core.manifest.host.clients.first(where: { $0.name == name }) else { return "client \(name) is not in host.clients" }
        if intent.hasPrefix("mmi.") || intent == "ib.ping" || grant.allows(intent) { return nil }
        return "client \(name) may not call \(intent) (allowed: \(grant.intents.joined(separator: ", ")))"
    }

    /// MMI (RFC 8): `mmi.service` answers "200" when something serves the name in the
    /// body, else "404"; any other `mmi.*` name answers "501".
    private func mmi(_ name: String, service: Data, body: [Frame]) -> [Frame] {
        var code = "501"
        if name == "mmi.service" {
            let asked = body.first?.validUTF8 ?? ""
            code = core.majordomoServes(asked, workers: broker.workerCount) ? "200" : "404"
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
        switch clients.fromCore(msg) {
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

    /// Hands the core what waited for it, until nothing does.
    func flush() {
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
