import Foundation
import IntentBusCore

/// Which of its hosts a client with several endpoints sends a new request to
/// (docs/protocol.md, "Several hosts"). A request stays with the host it went to; only a
/// lost host moves it, and only when it is idempotent.
public enum HostSelection: Sendable, Equatable {
    /// The host that failed longest ago, a host that never failed first, in the order the
    /// endpoints were given: a client stays with one host until it fails.
    case leastRecentlyFailed
    /// Each request to the next host in turn, passing over hosts that failed within the
    /// last `penalty` while another one did not.
    case roundRobin(penalty: Duration)

    /// The index of the host for the next request among `failures` (each host's last
    /// failure, monotonic ns), leaving out `excluded`; `turn` counts requests, for round
    /// robin. Nil when every host is excluded.
    public func pick(failures: [UInt64?], excluded: Set<Int>, turn: Int, now: UInt64) -> Int? {
        let order = (0..<failures.count).filter { !excluded.contains($0) }
        guard !order.isEmpty else { return nil }
        switch self {
        case .leastRecentlyFailed:
            // nil (never failed) sorts before any instant; ties keep the given order.
            return order.min { (failures[$0] ?? 0, $0) < (failures[$1] ?? 0, $1) }
        case .roundRobin(let penalty):
            let start = turn % failures.count
            let rotated = order.sorted { ($0 - start + failures.count) % failures.count < ($1 - start + failures.count) % failures.count }
            let window = penalty.nanoseconds
            let healthy = rotated.first { index in
                guard let failed = failures[index] else { return true }
                return now &- failed >= window
            }
            return healthy ?? Self.leastRecentlyFailed.pick(failures: failures, excluded: excluded, turn: turn, now: now)
        }
    }
}
