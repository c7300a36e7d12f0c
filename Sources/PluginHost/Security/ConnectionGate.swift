internal import CLinuxSupport
import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata
import Synchronization

/// The decisions of the connection gate (CLinuxSupport/connection_gate.c): libzmq's
/// `accept4` and `close` calls come here, on libzmq's I/O thread, at the moment libzmq
/// makes them. A connection beyond its pool's budget (or its uid's) is closed before
/// libzmq ever sees it; a kept one counts until libzmq closes its descriptor. Both happen
/// on the descriptor libzmq itself holds, so a number closed and reused meanwhile can
/// never be mistaken for another connection: the guard used to act on the socket
/// monitor's ACCEPTED events after the fact, by number, and could shut down a newer
/// connection that had taken the number of a gone one.
///
/// Threading: one gate per process (libzmq's functions are the process's); its state is
/// behind a mutex, taken by libzmq's I/O threads and by the guard's thread.
enum ConnectionGate {
    struct State {
        var budget: ConnectionBudget
        /// Each pool's listening address ("ipc:PATH", "tcp:PORT"), to tell the pool of a
        /// listener by its address.
        var addresses: [(pool: Int, key: String)]
        /// Listening descriptors already told apart (nil: not one of the host's pools).
        var listeners: [Int32: Int?] = [:]
        /// Pools whose connections' ZMTP frames are followed (docs/reliability.md, "Memory").
        var followed: Set<Int>
        var refusals = RefusalSummary(subject: "connection budget")
        /// Handshakes cut short, summed up on their own: a burst of them must not hide the
        /// first refusal of another kind.
        var evictions = RefusalSummary(subject: "connection budget")
        let logger: Logger
        /// Kept connections whose handshake has not ended (the host has not said READY):
        /// descriptor → (pool, the order they came in).
        var handshaking: [Int32: (pool: Int, order: UInt64)] = [:]
        var handshakingCount: [Int: Int] = [:]
        var arrivals: UInt64 = 0

        /// Connections of a pool that may be in their handshake at once: a quarter of it
        /// (at least 16). Peers that connect and never finish (no CURVE, or silent) held
        /// their descriptors for libzmq's 30 s handshake timeout and could fill the pool.
        func handshakeLimit(_ pool: Int) -> Int { max(16, budget.pools[pool].limit / 4) }

        mutating func handshakeEnded(_ fd: Int32) {
            guard let entry = handshaking.removeValue(forKey: fd) else { return }
            handshakingCount[entry.pool, default: 1] -= 1
        }
    }

    private static let state = Mutex<State?>(nil)

    /// Turns the gate on (once per process): every connection accepted from here on, on
    /// a listener whose address is in `addresses`, is counted in `budget`; on the
    /// `followed` pools a NULL-mechanism message of more than `messageFrames` frames or
    /// `messageBytes` bytes resets its connection.
    static func install(budget: ConnectionBudget, addresses: [(pool: Int, key: String)], followed: Set<Int>,
                        messageFrames: Int, messageBytes: Int, logger: Logger) {
        let fresh = state.withLock { current -> Bool in
            guard current == nil else { return false }
            current = State(budget: budget, addresses: addresses, followed: followed, logger: logger)
            return true
        }
        guard fresh else { return }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let descriptors = Int32(clamping: min(limit.rlim_cur, 1 << 24))
        ib_gate_install(descriptors, { listener, fd in ConnectionGate.accepted(listener: listener, fd: fd) },
                        { fd in ConnectionGate.closed(fd: fd) }, { fd in ConnectionGate.handshakeDone(fd: fd) },
                        UInt64(messageFrames), UInt64(messageBytes))
    }

    /// Adds (or corrects) a pool's listening address, once its socket has bound.
    static func listening(pool: Int, key: String) {
        state.withLock { current in
            guard current != nil else { return }
            if !current!.addresses.contains(where: { $0.pool == pool && $0.key == key }) {
                current!.addresses.append((pool, key))
                current!.listeners = current!.listeners.filter { $0.value != nil }  // unknown ones: look again
            }
        }
    }

    /// "ipc:PATH" or "tcp:PORT" for a ZeroMQ endpoint, as `ib_socket_key` writes it for a
    /// bound socket; nil for other transports (inproc has no descriptors).
    static func key(ofEndpoint endpoint: String) -> String? {
        if endpoint.hasPrefix("ipc://") { return "ipc:" + endpoint.dropFirst(6) }
        if endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":"),
           let port = UInt16(endpoint[endpoint.index(after: colon)...]), port != 0 {
            return "tcp:\(port)"
        }
        return nil
    }

    /// The periodic line: refusals counted since the last one, with each pool's use.
    static func summarize(now: UInt64) {
        state.withLock { current in
            guard current != nil else { return }
            let budget = current!.budget
            current!.refusals.summarize(now: now, logger: current!.logger, state: budget.pools.indices.map {
                "\(budget.pools[$0].name) \(budget.open(in: $0))/\(budget.pools[$0].limit) open"
            }.joined(separator: ", "))
            current!.evictions.summarize(now: now, logger: current!.logger)
        }
    }

    // MARK: - On libzmq's I/O thread

    private static func accepted(listener: Int32, fd: Int32) -> Int32 {
        var uid: UInt32 = 0
        let peer = ib_peer_uid(fd, &uid) == 0 ? uid : nil
        return state.withLock { current -> Int32 in
            guard current != nil, let pool = pool(of: listener, in: &current!) else { return Int32(IB_GATE_UNTRACKED) }
            let verdict = current!.budget.accepted(fd: fd, pool: pool, uid: peer)
            let name = current!.budget.pools[pool].name
            let now = MonotonicClock.now()
            switch verdict {
            case .keep:
                guard current!.followed.contains(pool) else { return Int32(IB_GATE_KEEP) }
                admitHandshake(fd: fd, pool: pool, name: name, now: now, state: &current!)
                return Int32(IB_GATE_KEEP_FOLLOWED)
            case .refusePool(let open):
                let limit = current!.budget.pools[pool].limit
                current!.refusals.refused("\(name) full", detail: "refused a connection to the \(name): \(open - 1) open, its limit \(limit)",
                                          now: now, logger: current!.logger)
            case .refuseUser(let uid, let open):
                let limit = current!.budget.pools[pool].perUser ?? 0
                current!.refusals.refused("\(name) uid \(uid)", detail: "refused a connection to the \(name) from uid \(uid): it has \(open - 1) open, the limit per uid \(limit)",
                                          now: now, logger: current!.logger)
            }
            current!.budget.closed(fd: fd)  // the gate closes it at once
            return Int32(IB_GATE_REFUSE)
        }
    }

    private static func closed(fd: Int32) {
        state.withLock { current in
            current?.budget.closed(fd: fd)
            current?.handshakeEnded(fd)
        }
    }

    private static func handshakeDone(fd: Int32) {
        state.withLock { current in current?.handshakeEnded(fd) }
    }

    /// Counts `fd` among its pool's connections in their handshake; past the pool's
    /// limit the oldest of them is shut down (it is a live descriptor of libzmq's: a
    /// close is heard under this same lock, so the number can't have been reused), so
    /// that silent peers can't keep the handshakes of real ones from starting.
    private static func admitHandshake(fd: Int32, pool: Int, name: String, now: UInt64, state: inout State) {
        // Not for the backend: its peers are the plugins the host started (a hundred of
        // them may start at once, and its pool is sized by their number).
        guard name != "backend" else { return }
        state.arrivals += 1
        state.handshaking[fd] = (pool, state.arrivals)
        state.handshakingCount[pool, default: 0] += 1
        let limit = state.handshakeLimit(pool)
        guard state.handshakingCount[pool]! > limit,
              let oldest = state.handshaking.filter({ $0.value.pool == pool }).min(by: { $0.value.order < $1.value.order })?.key
        else { return }
        state.handshakeEnded(oldest)
        _ = shutdown(oldest, Int32(SHUT_RDWR))
        state.evictions.refused("\(name) handshakes", detail: "shut down the oldest of \(limit + 1) connections to the \(name) still in their handshake (at most \(limit) at once: a quarter of its budget)",
                               now: now, logger: state.logger)
    }

    /// The pool whose listening socket `listener` is, by its address (looked up once).
    private static func pool(of listener: Int32, in state: inout State) -> Int? {
        if let known = state.listeners[listener] { return known }
        var buffer = [CChar](repeating: 0, count: 256)
        let key = ib_socket_key(listener, &buffer, UInt(buffer.count)) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        let pool = key.flatMap { key in state.addresses.first { $0.key == key }?.pool }
        state.listeners[listener] = .some(pool)
        return pool
    }
}
