internal import CLinuxSupport
import Foundation
import IntentBusCore
import IntentBusZMQ

/// Keeps the host's connections within its `ConnectionBudget`: reads the socket
/// monitors of the listening sockets on a thread of its own and shuts down, at once,
/// each accepted connection beyond the budget. `shutdown(2)` on the descriptor makes
/// libzmq see the connection end and close it the ordinary way (a DISCONNECTED event,
/// the descriptor freed), and the peer's libzmq reconnects later: a refusal, without
/// touching libzmq's state from outside its thread. The thread is its own because the
/// router thread can be busy for milliseconds, and libzmq accepts about one connection
/// per I/O-loop turn meanwhile.
///
/// Refusals are logged at once the first time, then summed up every 10 s.
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

    init(budget: ConnectionBudget, context: ZMQContext, logger: Logger) {
        self.budget = budget
        self.logger = logger
        monitor = SocketMonitor(context: context)
    }

    /// Turns on the monitor of `socket`, the listening socket of the pool named `pool`.
    /// Call before the socket binds, so that no connection goes uncounted. A monitor
    /// that libzmq refuses leaves that socket unguarded, logged.
    func watch(_ socket: ZMQSocket, pool name: String) {
        guard let index = budget.pools.firstIndex(where: { $0.name == name }) else { return }
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
        var budget = budget
        var refusals = RefusalSummary(subject: "connection budget")
        var nextSweep = MonotonicClock.now() + 1_000_000_000
        while !isStopping {
            let events: [(source: Int, event: SocketEvent)]
            do { events = try monitor.events(timeoutMs: 200) } catch {
                logger.error("reading the connection monitors failed (\(error)): connections are no longer counted")
                break
            }
            for (source, event) in events {
                let pool = poolOfSource[source]
                switch event.kind {
                case .accepted:
                    refuseIfOver(fd: event.value, pool: pool, budget: &budget, refusals: &refusals)
                case .disconnected:
                    budget.disconnected(fd: event.value, pool: pool)
                case .acceptFailed:
                    logger.error("the \(budget.pools[pool].name) could not accept a connection: \(String(cString: strerror(event.value))) (errno \(event.value))")
                case .other:
                    break
                }
            }
            let now = MonotonicClock.now()
            if now >= nextSweep {
                nextSweep = now + 1_000_000_000
                let missed = budget.sweep(inode: Self.inode)
                if missed > 0 { logger.debug("connection budget: \(missed) closed connections had no DISCONNECTED event") }
                refusals.summarize(now: now, logger: logger, state: budget.pools.indices.map {
                    "\(budget.pools[$0].name) \(budget.open(in: $0))/\(budget.pools[$0].limit) open"
                }.joined(separator: ", "))
            }
        }
        monitor.close()
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    private func refuseIfOver(fd: Int32, pool: Int, budget: inout ConnectionBudget, refusals: inout RefusalSummary) {
        guard let inode = Self.inode(fd) else { return }  // already closed
        var uid: UInt32 = 0
        let peer = ib_peer_uid(fd, &uid) == 0 ? uid : nil
        let verdict = budget.accepted(fd: fd, pool: pool, uid: peer, inode: inode)
        let name = budget.pools[pool].name
        let now = MonotonicClock.now()
        switch verdict {
        case .keep:
            return
        case .refusePool(let open):
            refusals.refused("\(name) full", detail: "refused a connection to the \(name): \(open - 1) open, its limit \(budget.pools[pool].limit)",
                             now: now, logger: logger)
        case .refuseUser(let uid, let open):
            refusals.refused("\(name) uid \(uid)", detail: "refused a connection to the \(name) from uid \(uid): it has \(open - 1) open, the limit per uid \(budget.pools[pool].perUser ?? 0)",
                             now: now, logger: logger)
        }
        // Checked again right before: the number must still be that connection.
        if Self.inode(fd) == inode { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// The inode of the file `fd` is now, nil when it is closed.
    private static func inode(_ fd: Int32) -> UInt64? {
        var info = stat()
        return fstat(fd, &info) == 0 ? UInt64(info.st_ino) : nil
    }
}
