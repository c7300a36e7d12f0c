import Foundation

/// How many connections the host keeps open, so that its descriptors never run out
/// inside libzmq (docs/reliability.md, "File descriptors"). libzmq 4.3 asserts when
/// `accept` on an ipc listener fails with EMFILE (SIGABRT, every open request lost), and
/// spins an I/O thread at 100 % when a tcp one does; it has no option to stop accepting.
/// So the host counts the connections libzmq accepts and closes (ConnectionGate, at
/// libzmq's own accept4 and close calls) and refuses those beyond the budget as they
/// arrive, which keeps enough descriptors free for `accept` to succeed.
///
/// Each listening socket has a pool with its own limit (a flood of clients does not
/// lock plugins out of the backend), and on ipc a limit per peer uid (one local user
/// does not lock the others out). A refused connection is closed at once.
///
/// Pure bookkeeping, no sockets: `ConnectionGate` feeds it and carries out its verdicts.
struct ConnectionBudget {
    /// One listening socket's share.
    struct Pool: Sendable, Equatable {
        let name: String
        let limit: Int
        /// The limit per peer uid, on ipc (nil: none, tcp has no peer uid).
        let perUser: Int?
    }

    /// What to do with a connection just accepted.
    enum Verdict: Equatable {
        case keep
        /// Its pool is full.
        case refusePool(open: Int)
        /// Its peer uid has its share of the pool.
        case refuseUser(uid: UInt32, open: Int)
    }

    private struct Entry {
        let pool: Int
        let uid: UInt32?
    }

    let pools: [Pool]
    private var entries: [Int32: Entry] = [:]
    private var counts: [Int]
    private var userCounts: [Int: [UInt32: Int]] = [:]

    init(pools: [Pool]) {
        self.pools = pools
        counts = Array(repeating: 0, count: pools.count)
    }

    /// Connections counted in `pool` now (kept ones and refused ones not yet closed).
    func open(in pool: Int) -> Int { counts[pool] }

    /// A connection accepted on `pool`'s socket, with descriptor `fd`.
    mutating func accepted(fd: Int32, pool: Int, uid: UInt32?) -> Verdict {
        // The same number again: the earlier connection has ended (a safety net: the gate
        // hears every close before the number can be reused).
        remove(fd)
        entries[fd] = Entry(pool: pool, uid: uid)
        counts[pool] += 1
        var perUser = 0
        if let uid {
            perUser = userCounts[pool, default: [:]][uid, default: 0] + 1
            userCounts[pool, default: [:]][uid] = perUser
        }
        if counts[pool] > pools[pool].limit { return .refusePool(open: counts[pool]) }
        if let uid, let limit = pools[pool].perUser, perUser > limit { return .refuseUser(uid: uid, open: perUser) }
        return .keep
    }

    /// A connection of `pool`'s socket ended. An event from another pool's monitor for a
    /// descriptor number since reused there is ignored: each monitor's events are in
    /// order, but two monitors' are not in order with each other.
    mutating func disconnected(fd: Int32, pool: Int) {
        guard entries[fd]?.pool == pool else { return }
        remove(fd)
    }

    /// The connection on `fd` was closed (the gate hears libzmq's close(2) itself).
    mutating func closed(fd: Int32) { remove(fd) }

    private mutating func remove(_ fd: Int32) {
        guard let old = entries.removeValue(forKey: fd) else { return }
        counts[old.pool] -= 1
        if let uid = old.uid {
            let left = userCounts[old.pool, default: [:]][uid, default: 1] - 1
            userCounts[old.pool, default: [:]][uid] = left > 0 ? left : nil
        }
    }
}

extension ConnectionBudget {
    /// Descriptors the host needs besides connections: libzmq's own (an eventfd per
    /// socket, epoll), the log, SQLite's three files, inotify, systemd's socket, stdio.
    static let fixedReserve = 64
    /// Per plugin process: its stdout and stderr pipes and its pidfd.
    static let perPluginReserve = 3

    /// The pools for the frontend, the backend and the Majordomo endpoint, from the
    /// soft RLIMIT_NOFILE `fileLimit` and the number of plugin processes. An eighth of
    /// the limit stays free for the connections libzmq accepts between a refusal
    /// decision and the descriptor's close. `maxConnections` (`limits.max_connections`)
    /// lowers the frontend's share; a quarter of it is kept from any one peer uid on ipc
    /// unless `maxPerUser` says otherwise.
    static func pools(fileLimit: Int, processes: Int, frontendIsIPC: Bool, mdp: Bool,
                      maxConnections: Int?, maxPerUser: Int?) -> [Pool] {
        let available = max(8, fileLimit - fixedReserve - perPluginReserve * processes - fileLimit / 8)
        let backend = min(max(2, available / 4), 2 * processes + 16)
        let mdpShare = mdp ? max(1, (available - backend) / 4) : 0
        var frontend = max(1, available - backend - mdpShare)
        if let maxConnections { frontend = min(frontend, maxConnections) }
        let perUser = frontendIsIPC ? min(frontend, maxPerUser ?? max(1, frontend - frontend / 4)) : nil
        var pools = [Pool(name: "frontend", limit: frontend, perUser: perUser),
                     Pool(name: "backend", limit: backend, perUser: nil)]
        if mdp { pools.append(Pool(name: "mdp", limit: mdpShare, perUser: nil)) }
        return pools
    }
}
