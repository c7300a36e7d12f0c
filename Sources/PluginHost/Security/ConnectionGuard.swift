internal import CLinuxSupport
import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusStore

/// Keeps the host's connections within its `ConnectionBudget` and its messages within
/// `host.limits.max_message_frames`: sets up the connection gate (ConnectionGate, which
/// decides on each connection at libzmq's own accept4, counts it until libzmq's close,
/// and resets a connection whose message never ends), and reads the socket monitors of
/// the listening sockets on a thread of its own, for what is logged: refusals summed up
/// every 10 s, connections cut for a message over the limits, failed accepts.
///
/// Threading: `watch`, `start` and `stop` on the thread that owns the watched sockets
/// (the router thread); the monitor's sockets move to the guard's thread in `start`.
/// `@unchecked Sendable`: `stopping` and `finished` are guarded by `condition`; the
/// other state is the router thread's.
final class ConnectionGuard: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false
    private let budget: ConnectionBudget
    private let logger: Logger
    private let tag = UUID().uuidString
    private let monitor: SocketMonitor
    /// The watched sockets, to stop their monitors before the guard's sockets close.
    private var watched: [ZMQSocket] = []
    /// The pool of each monitor endpoint, in the monitor's order.
    private var poolOfSource: [Int] = []
    private var started = false

    /// Frames and bytes one message may have on a connection (max_message_frames, and
    /// the frame limit libzmq keeps: no message can be longer than a frame may be).
    private let messageFrames: Int
    private let messageBytes: Int
    /// Each watched socket's pool, and the pools' listening addresses known before binding.
    private var poolOfSocket: [(socket: ZMQSocket, pool: Int)] = []
    private var addresses: [(pool: Int, key: String)] = []

    init(budget: ConnectionBudget, limits: HostLimits, context: ZMQContext, logger: Logger) {
        self.budget = budget
        self.logger = logger
        messageFrames = limits.maxMessageFrames
        messageBytes = limits.transportFrameLimit
        monitor = SocketMonitor(context: context)
    }

    /// Turns on the monitor of `socket`, the listening socket of the pool named `pool`,
    /// which binds `endpoint`; and the gate, when this is the first, so that no
    /// connection goes uncounted. A monitor that libzmq refuses is logged.
    func watch(_ socket: ZMQSocket, pool name: String, endpoint: String) {
        guard let index = budget.pools.firstIndex(where: { $0.name == name }) else { return }
        let key = ConnectionGate.key(ofEndpoint: endpoint)
        if let key { addresses.append((index, key)) }
        poolOfSocket.append((socket, index))
        // Every pool's connections have their frames followed: clients, plugins and MDP
        // peers alike can send a message that never ends.
        ConnectionGate.install(budget: budget, addresses: addresses, followed: Set(budget.pools.indices),
                               messageFrames: messageFrames, messageBytes: messageBytes, logger: logger)
        if let key { ConnectionGate.listening(pool: index, key: key) }
        let endpoint = "inproc://intentbus-monitor-\(name)-\(tag)"
        do {
            try socket.monitor(at: endpoint)
            try monitor.connect(endpoint)  // at once: libzmq blocks on an event nobody can take
        } catch {
            socket.stopMonitor()
            return logger.error("can't monitor the \(name)'s connections (\(error)): they are not counted")
        }
        watched.append(socket)
        poolOfSource.append(index)
    }

    /// Starts the guard's thread (once the sockets are watched and bound).
    func start() {
        // An ephemeral tcp port is known only now.
        for (socket, pool) in poolOfSocket {
            if let key = ConnectionGate.key(ofEndpoint: socket.lastEndpoint) { ConnectionGate.listening(pool: pool, key: key) }
        }
        let limits = budget.pools.map { "\($0.name) \($0.limit)" + ($0.perUser.map { " (\($0) per uid)" } ?? "") }
        logger.info("connection budget: \(limits.joined(separator: ", ")) connections")
        started = true
        let owned = WorkerOwned(monitor)  // the thread's alone from here (Thread.start is the barrier)
        let (pools, budget, logger) = (poolOfSource, budget, logger)
        let thread = Thread { [self] in run(owned.value, pools: pools, budget: budget, logger: logger) }
        thread.name = "intentbus-connections"
        thread.start()
    }

    /// Stops the watched sockets' monitors, then the thread, and waits until it has
    /// closed its sockets. Before the watched sockets close; a second call does nothing.
    func stop() {
        watched.forEach { $0.stopMonitor() }
        watched = []
        guard started else { return monitor.close() }
        started = false
        condition.lock()
        stopping = true
        while !finished { condition.wait() }
        condition.unlock()
    }

    private var isStopping: Bool { condition.withLock { stopping } }

    private func run(_ monitor: SocketMonitor, pools poolOfSource: [Int], budget: ConnectionBudget, logger: Logger) {
        var nextSweep = MonotonicClock.now() + 1_000_000_000
        var cutsLogged: UInt = 0
        // Anyone who can reach a tcp endpoint can fail handshakes at will: summed up too,
        // each reason on its own (a handful: libzmq's protocol error codes), so that each
        // kind is named at least once.
        var handshakes: [String: RefusalSummary] = [:]
        while !isStopping {
            let events: [(source: Int, event: SocketEvent)]
            do { events = try monitor.events(timeoutMs: 200) } catch {
                logger.error("reading the connection monitors failed (\(error)): their events are no longer logged")
                break
            }
            for (source, event) in events {
                let pool = poolOfSource[source]
                switch event.kind {
                case .acceptFailed where event.value != ECONNABORTED:  // the gate's own refusals
                    logger.error("the \(budget.pools[pool].name) could not accept a connection: \(String(cString: strerror(event.value))) (errno \(event.value))")
                case .handshakeFailedProtocol, .handshakeFailed:
                    // (ZAP refusals, `handshakeFailedAuth`, are logged by the ZAP handler with the key.)
                    let name = budget.pools[pool].name
                    let reason = event.handshakeRefusal ?? ""
                    handshakes["\(name): \(reason)", default: RefusalSummary(subject: "handshakes")]
                        .refused("\(name): \(reason)", detail: "refused a connection to the \(name): \(reason)",
                                 now: MonotonicClock.now(), logger: logger)
                default:
                    break
                }
            }
            var frames: UInt64 = 0, bytes: UInt64 = 0
            let cuts = UInt(ib_gate_cuts(&frames, &bytes))
            if cuts != cutsLogged {
                logger.warning("cut \(cuts - cutsLogged) connection(s) whose message did not end: the last had \(frames) frames, \(bytes) bytes (at most \(messageFrames) frames, host.limits.max_message_frames, and \(messageBytes) bytes); \(cuts) in all")
                cutsLogged = cuts
            }
            let now = MonotonicClock.now()
            if now >= nextSweep {
                nextSweep = now + 1_000_000_000
                ConnectionGate.summarize(now: now)
                for key in handshakes.keys { handshakes[key]!.summarize(now: now, logger: logger) }
            }
        }
        monitor.close()
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }
}
