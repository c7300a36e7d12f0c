import Foundation
import Testing
@testable import PluginHost

/// The connection budget's bookkeeping, without sockets (the end-to-end proof is
/// clients/python/tests/test_e2e_connections.py).
@Suite("Connection budget")
struct ConnectionBudgetTests {
    private let pools = [ConnectionBudget.Pool(name: "frontend", limit: 4, perUser: 3),
                         ConnectionBudget.Pool(name: "backend", limit: 2, perUser: nil)]

    @Test("pools from RLIMIT_NOFILE: reserves, the backend's share, three quarters per uid, max_connections lowers")
    func sizes() {
        let small = ConnectionBudget.pools(fileLimit: 256, processes: 1, frontendIsIPC: true, mdp: false,
                                           maxConnections: nil, maxPerUser: nil)
        #expect(small == [.init(name: "frontend", limit: 139, perUser: 105), .init(name: "backend", limit: 18, perUser: nil)])
        let smallTotal = small.map(\.limit).reduce(0, +)
        #expect(smallTotal < 224)
        let big = ConnectionBudget.pools(fileLimit: 65_536, processes: 10, frontendIsIPC: false, mdp: true,
                                         maxConnections: nil, maxPerUser: nil)
        #expect(big.map(\.name) == ["frontend", "backend", "mdp"])
        #expect(big[0].perUser == nil)  // tcp has no peer uid
        let bigTotal = big.map(\.limit).reduce(0, +)
        #expect(bigTotal <= 57_250)  // 65,536 − 64 − 3 × 10 − 65,536 / 8
        let lowered = ConnectionBudget.pools(fileLimit: 65_536, processes: 1, frontendIsIPC: true, mdp: false,
                                             maxConnections: 100, maxPerUser: 500)
        #expect(lowered[0] == .init(name: "frontend", limit: 100, perUser: 100))
        // A tiny limit still leaves each pool at least one connection.
        let tiny = ConnectionBudget.pools(fileLimit: 16, processes: 100, frontendIsIPC: true, mdp: false,
                                          maxConnections: nil, maxPerUser: nil)
        #expect(tiny.allSatisfy { $0.limit >= 1 })
    }

    @Test("beyond the pool or the uid's share: refused, and counted until closed")
    func refusals() {
        var budget = ConnectionBudget(pools: pools)
        #expect(budget.accepted(fd: 10, pool: 0, uid: 1000) == .keep)
        #expect(budget.accepted(fd: 11, pool: 0, uid: 1000) == .keep)
        #expect(budget.accepted(fd: 12, pool: 0, uid: 1000) == .keep)
        #expect(budget.accepted(fd: 13, pool: 0, uid: 1000) == .refuseUser(uid: 1000, open: 4))
        budget.disconnected(fd: 13, pool: 0)
        #expect(budget.accepted(fd: 13, pool: 0, uid: 0) == .keep)  // another uid still gets in
        #expect(budget.accepted(fd: 14, pool: 0, uid: 0) == .refusePool(open: 5))
        // The backend's pool is its own: a full frontend does not lock plugins out.
        #expect(budget.accepted(fd: 20, pool: 1, uid: nil) == .keep)
        budget.disconnected(fd: 14, pool: 0)
        budget.disconnected(fd: 10, pool: 0)
        #expect(budget.open(in: 0) == 3)
        #expect(budget.accepted(fd: 15, pool: 0, uid: 1000) == .keep)
    }

    @Test("a descriptor number reused: the old connection is forgotten; another pool's late DISCONNECTED is ignored")
    func reuse() {
        var budget = ConnectionBudget(pools: pools)
        _ = budget.accepted(fd: 30, pool: 0, uid: 1)
        // The frontend's connection on 30 ended, the backend accepted a new one on 30, and
        // the backend's monitor was read first.
        _ = budget.accepted(fd: 30, pool: 1, uid: nil)
        budget.disconnected(fd: 30, pool: 0)
        #expect(budget.open(in: 0) == 0)
        #expect(budget.open(in: 1) == 1)
    }

    @Test("a closed descriptor frees its place in its pool and its uid's share at once")
    func closedFreesAtOnce() {
        var budget = ConnectionBudget(pools: pools)
        _ = budget.accepted(fd: 40, pool: 0, uid: 1)
        _ = budget.accepted(fd: 41, pool: 0, uid: 1)
        budget.closed(fd: 40)
        budget.closed(fd: 40)  // twice: nothing more
        #expect(budget.open(in: 0) == 1)
        budget.closed(fd: 41)
        #expect(budget.open(in: 0) == 0)
    }
}
