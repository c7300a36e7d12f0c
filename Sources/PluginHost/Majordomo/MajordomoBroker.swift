import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What the broker asks of the world: the MDP socket, the router core, the clock.
protocol MajordomoBrokerOutput: AnyObject {
    /// Sends frames (after the identity) to a worker.
    func sendToWorker(_ identity: Data, _ frames: [Frame])
    /// An IB1 message from the stand-in plugin of the `mdp_worker` entry at `slot`.
    func toCore(slot: Int, _ msg: WireMessage)
    /// The entry at `slot` has its first worker: the core may route to it.
    func attach(slot: Int)
    /// The entry at `slot` has no workers and holds nothing: requests wait in the core.
    func detach(slot: Int)
    /// Monotonic nanoseconds.
    func now() -> UInt64
}

/// The worker side of Majordomo (MDP/0.1, RFC 7): workers that said READY, one queue
/// per service, heartbeats both ways and expiry, DISCONNECT (docs/mdp.md).
///
/// To the router core, each `mdp_worker` manifest entry is one plugin connection (a
/// stand-in identity): the core routes, chooses, times out and answers clients as for any
/// plugin, and sends this broker plain IB1 REQUESTs and CANCELs. The broker hands each
/// request to the worker idle longest (so load spreads), queues it while the service has
/// no idle worker, and turns the worker's REPLY, or its death, into the IB1 REPLY or ERROR
/// the core needs for its one final answer. No I/O of its own: see `MajordomoBrokerOutput`.
///
/// Owned by the router thread.
final class MajordomoBroker {
    final class Worker {
        let identity: Data
        let service: String
        let slot: Int
        var lastHeard: UInt64
        /// The host request id (the MDP client address) of the request it holds.
        var request: String?
        /// Its request came from an MDP client (its body was packed): the reply's frames go
        /// back packed, unchanged, whatever they hold.
        var packed = false
        /// Its request ended in the core (timeout, cancel): its reply will be dropped, and
        /// it may be expired like an idle worker.
        var abandoned = false
        /// tcp with CURVE: the User-Id its READY came with; every later command from its
        /// routing id must carry the same.
        var user: String?

        init(identity: Data, service: String, slot: Int, now: UInt64) {
            self.identity = identity
            self.service = service
            self.slot = slot
            lastHeard = now
        }
    }

    /// One service's idle workers (longest idle first) and waiting requests.
    final class Service {
        let slot: Int
        var idle: [Worker] = []
        var queue: [(id: String, body: [Frame], packed: Bool)] = []
        var workers = 0
        init(slot: Int) { self.slot = slot }
    }

    private unowned let output: any MajordomoBrokerOutput
    private let logger: Logger
    private let bodies: MajordomoFrames
    /// Service → the slot of the `mdp_worker` entry that lists it.
    private let allowed: [String: Int]
    private let pluginIds: [Int: String]
    private var workers: [PeerKey: Worker] = [:]
    private var services: [String: Service] = [:]
    /// Host request id → the worker holding it.
    private var inFlight: [String: Worker] = [:]
    private var attached: Set<Int> = []
    private let heartbeat: UInt64
    private let liveness: UInt64
    private var nextBeat: UInt64 = 0
    /// tcp with CURVE: a READY counts only from the key of the entry listing the service.
    var requireKeys = false
    /// Refused READYs, their DISCONNECTs paced.
    let refusals = MajordomoRefusals()

    init(manifest: Manifest, settings: MajordomoSettings, logger: Logger, bodies: MajordomoFrames, output: any MajordomoBrokerOutput) {
        self.output = output
        self.logger = logger
        self.bodies = bodies
        var allowed: [String: Int] = [:]
        var ids: [Int: String] = [:]
        for (index, spec) in manifest.plugins.enumerated() where spec.mdpWorker && spec.enabled {
            ids[index] = spec.id
            for intent in spec.intentsSupported where allowed[intent] == nil { allowed[intent] = index }
        }
        self.allowed = allowed
        pluginIds = ids
        heartbeat = settings.heartbeat.nanoseconds
        liveness = UInt64(settings.liveness)
    }

    /// How many workers are ready or busy for `service`.
    func workerCount(_ service: String) -> Int { services[service]?.workers ?? 0 }

    /// When the next heartbeat round is due, while there are workers, or the next paced
    /// DISCONNECT.
    var nextDeadline: UInt64? {
        [workers.isEmpty ? nil : nextBeat, refusals.nextDeadline].compactMap { $0 }.min()
    }

    /// How many workers are connected, for every service (ib.status).
    var totalWorkers: Int { workers.count }

    // MARK: - From workers

    /// A worker command from `identity`.
    func workerMessage(_ identity: Data, _ msg: MajordomoMessage, user: String? = nil) {
        let key = PeerKey(identity: identity)
        let worker = workers[key]
        if requireKeys, let worker, worker.user != user {
            // libzmq refuses a routing id a live connection holds: the worker is gone, and a
            // connection with another key took its id. It inherits nothing.
            return remove(worker, why: "a connection authenticated as \(user ?? "nobody") reused its routing id (it was \(worker.user ?? "nobody"))",
                          disconnect: false)
        }
        // A refused worker waiting for its paced DISCONNECT: nothing it says counts.
        if worker == nil, refusals.isWaiting(identity) { return }
        worker?.lastHeard = output.now()  // any command counts as a heartbeat
        switch msg {
        case .ready(let service):
            if let worker { return remove(worker, why: "it sent a second READY", disconnect: true) }
            guard let slot = allowed[service] else {
                return refuseReady(identity, service, why: "no mdp_worker entry lists")
            }
            if requireKeys, user != "mdp-worker:\(pluginIds[slot] ?? "")" {
                return refuseReady(identity, service, why: "only the key of entry \(pluginIds[slot] ?? "?") (public_key) may offer")
            }
            let new = Worker(identity: identity, service: service, slot: slot, now: output.now())
            new.user = user
            if workers.isEmpty { nextBeat = output.now() &+ heartbeat }
            workers[key] = new
            serviceState(service, slot: slot).workers += 1
            logger.info("MDP worker ready for \(service) (\(pluginIds[slot] ?? "?"), \(workerCount(service)) now)")
            if attached.insert(slot).inserted { output.attach(slot: slot) }
            idle(new)
        case .reply(let address, let body):
            guard let worker else { return refuseUnknown(identity, "REPLY") }
            guard worker.request == address else {
                return remove(worker, why: "it sent a REPLY for a request it does not hold", disconnect: true)
            }
            worker.request = nil
            if worker.abandoned {
                worker.abandoned = false
                logger.debug("MDP worker for \(worker.service) answered request \(address) after it ended; dropped")
            } else {
                inFlight.removeValue(forKey: address)
                output.toCore(slot: worker.slot, reply(address, worker, body))
            }
            idle(worker)
        case .heartbeat:
            if worker == nil { refuseUnknown(identity, "HEARTBEAT") }
        case .disconnect:
            if let worker { remove(worker, why: "it said DISCONNECT", disconnect: false) }
        case .request:
            break  // never parsed from a worker
        }
    }

    /// A message from `identity` that is not MDP/0.1: dropped, and a known worker is
    /// treated as invalid (RFC 7).
    func invalid(_ identity: Data, _ problem: MajordomoFrameError) {
        if let worker = workers[PeerKey(identity: identity)] {
            remove(worker, why: "it sent a message that is not MDP/0.1 (\(problem))", disconnect: true)
        }
    }

    private func refuseReady(_ identity: Data, _ service: String, why: String) {
        if refusals.refuse(identity, service: service, why: why, now: output.now(), logger: logger) {
            output.sendToWorker(identity, MajordomoMessage.workerCommand(.disconnect))
        }
    }

    private func refuseUnknown(_ identity: Data, _ command: String) {
        logger.debug("\(command) from an MDP peer that is not a ready worker; sent DISCONNECT")
        output.sendToWorker(identity, MajordomoMessage.workerCommand(.disconnect))
    }

    // MARK: - From the core

    /// An IB1 message the core sent to the stand-in of the entry at `slot`.
    func fromCore(slot: Int, _ msg: WireMessage) {
        switch msg.kind {
        case .request:
            // From an MDP client the body comes packed: the worker gets the client's frames.
            let unpacked = bodies.unpack(msg.body)
            let body = unpacked ?? [msg.body]
            let svc = serviceState(msg.intent, slot: slot)
            if svc.idle.isEmpty {
                svc.queue.append((msg.requestId, body, unpacked != nil))
            } else {
                deliver(msg.requestId, body, packed: unpacked != nil, to: svc.idle.removeFirst())
            }
        case .cancel:
            if let worker = inFlight.removeValue(forKey: msg.requestId) {
                worker.abandoned = true
            } else if let svc = services[msg.intent], let i = svc.queue.firstIndex(where: { $0.id == msg.requestId }) {
                svc.queue.remove(at: i)
            }
            detachIfEmpty(slot)
        case .disconnect:
            // The host is stopping: every worker is told, and the core ends its requests.
            for worker in workers.values where worker.slot == slot {
                output.sendToWorker(worker.identity, MajordomoMessage.workerCommand(.disconnect))
            }
            workers = workers.filter { $0.value.slot != slot }
            inFlight = inFlight.filter { $0.value.slot != slot }
            for svc in services.values where svc.slot == slot { svc.idle.removeAll(); svc.queue.removeAll(); svc.workers = 0 }
        default:
            break  // MDP workers never ask questions: no ANSWER can be due
        }
    }

    // MARK: - Heartbeats

    /// Every heartbeat interval: idle workers silent for `liveness` intervals are dead
    /// (RFC 7); the others get a HEARTBEAT. A busy worker is not expired (zguide workers
    /// do not beat while they work): its request's timeout ends the request, and the
    /// worker is expired from then on if it stays silent.
    func fireDue() {
        let now = output.now()
        for identity in refusals.due(now) { output.sendToWorker(identity, MajordomoMessage.workerCommand(.disconnect)) }
        guard !workers.isEmpty, now >= nextBeat else { return }
        nextBeat = now &+ heartbeat
        for worker in Array(workers.values) {
            let silent = now &- worker.lastHeard
            if (worker.request == nil || worker.abandoned), silent > heartbeat * liveness {
                remove(worker, why: "silent for \(silent / 1_000_000) ms (\(liveness) heartbeats)", disconnect: false)
            } else {
                output.sendToWorker(worker.identity, MajordomoMessage.workerCommand(.heartbeat))
            }
        }
    }

    // MARK: - Helpers

    private func serviceState(_ name: String, slot: Int) -> Service {
        if let svc = services[name] { return svc }
        let svc = Service(slot: slot)
        services[name] = svc
        return svc
    }

    /// A worker is free: it takes the oldest waiting request, or waits at the back.
    private func idle(_ worker: Worker) {
        let svc = serviceState(worker.service, slot: worker.slot)
        if svc.queue.isEmpty {
            svc.idle.append(worker)
        } else {
            let next = svc.queue.removeFirst()
            deliver(next.id, next.body, packed: next.packed, to: worker)
        }
    }

    private func deliver(_ id: String, _ body: [Frame], packed: Bool, to worker: Worker) {
        worker.request = id
        worker.packed = packed
        worker.abandoned = false
        inFlight[id] = worker
        output.sendToWorker(worker.identity, MajordomoMessage.workerRequest(address: id, body: body))
    }

    /// Forgets a worker; the request it held ends with an ERROR.
    private func remove(_ worker: Worker, why: String, disconnect: Bool) {
        guard workers.removeValue(forKey: PeerKey(identity: worker.identity)) != nil else { return }
        let svc = serviceState(worker.service, slot: worker.slot)
        svc.workers -= 1
        svc.idle.removeAll { $0 === worker }
        let plugin = pluginIds[worker.slot] ?? "?"
        logger.warning("MDP worker for \(worker.service) (\(plugin)) is gone: \(why); \(svc.workers) left")
        if disconnect { output.sendToWorker(worker.identity, MajordomoMessage.workerCommand(.disconnect)) }
        if let id = worker.request, !worker.abandoned {
            inFlight.removeValue(forKey: id)
            let error = BusError(.pluginUnavailable, "the MDP worker for \(worker.service) (\(plugin)) left while handling this request: \(why)",
                                 details: ["plugin": .string(plugin)])
            output.toCore(slot: worker.slot, WireMessage(kind: .error, requestId: id, intent: worker.service, header: nil, body: error.json))
        }
        detachIfEmpty(worker.slot)
    }

    /// An entry with no workers and nothing waiting or in flight goes back to "waiting"
    /// in the core, so `ib.plugins` and the choice prompt say so.
    private func detachIfEmpty(_ slot: Int) {
        guard attached.contains(slot) else { return }
        for svc in services.values where svc.slot == slot && (svc.workers > 0 || !svc.queue.isEmpty) { return }
        if inFlight.values.contains(where: { $0.slot == slot }) { return }
        attached.remove(slot)
        output.detach(slot: slot)
    }

    /// The IB1 REPLY (or ERROR) for a worker's reply body: for an MDP client its frames
    /// packed, unchanged; for a native client one frame of JSON (none: `{}`).
    private func reply(_ id: String, _ worker: Worker, _ body: [Frame]) -> WireMessage {
        let plugin = pluginIds[worker.slot] ?? "?"
        let header = Frame(data: JSON.object(ReplyHeaderKey.header([.plugin: .string(plugin), .status: "success"])).canonicalData)
        if worker.packed {
            return WireMessage(kind: .reply, requestId: id, intent: worker.service, header: header, body: bodies.pack(body))
        }
        guard body.count <= 1 else {
            return pluginError(id, worker, "replied with \(body.count) body frames; IntentBus takes one frame of JSON")
        }
        let frame = body.first ?? Frame()
        if frame.count > 0 {
            do { _ = try JSON.parse(frame.data) } catch {
                return pluginError(id, worker, "replied with a body that is not JSON (\(error.message))")
            }
        }
        return WireMessage(kind: .reply, requestId: id, intent: worker.service, header: header, body: frame)
    }

    private func pluginError(_ id: String, _ worker: Worker, _ problem: String) -> WireMessage {
        let plugin = pluginIds[worker.slot] ?? "?"
        let error = BusError(.pluginError, "the MDP worker for \(worker.service) (\(plugin)) \(problem)", details: ["plugin": .string(plugin)])
        return WireMessage(kind: .error, requestId: id, intent: worker.service, header: nil, body: error.json)
    }
}
