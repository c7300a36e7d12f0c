import Foundation
import IntentBusCore

/// Run-once for resent requests: what keeps a plugin connected to several hosts from
/// running one idempotent request twice (docs/protocol.md §4.10 and §5.2,
/// docs/scale-out.md "Run once").
///
/// A client whose host was lost sends an idempotent request again, under the same id, to
/// another host; the plugin then gets it from two hosts under two host ids. The hosts give
/// the delivery that runs it (plain, legacy `handle`, new-style perform) the same
/// `run_key`: the first delivery runs the handler, a repeat while it runs joins it, and a
/// repeat after it ended gets the first run's final answer. The Python SDK keeps the same
/// table (intentbus/plugin/run_once.py).
///
/// Bounded: at most `maximumEntries` keys and `maximumBytes` of kept answers (one answer
/// larger than a quarter of that is not kept), each kept `window` after its run ended.
/// A cancelled run is not kept: it says nothing about whether the work was done.
///
/// Threading: any thread (`lock`); the loop claims, handler tasks finish.
package final class RunOnceBook: @unchecked Sendable {
    // @unchecked: `runs`, `order` and `bytes` are guarded by `lock`.
    /// Who asked: a backend (the host's connection) and that host's request id.
    package struct Waiter: Hashable, Sendable {
        package let link: Int
        package let requestId: String
        package init(link: Int, requestId: String) { self.link = link; self.requestId = requestId }
    }

    /// What to do with a delivery under a run key.
    package enum Verdict: Equatable {
        /// Run it: it is now the key's run (report its end with `finish`).
        case run
        /// A run is in progress: wait for it; `finish` hands its answer to this delivery.
        case join
        /// The run ended with this final message (the first delivery's request id: re-address it).
        case done(FinalAnswer)
        /// Run it without run-once: the table is full of runs in progress.
        case untracked
    }

    /// A final message as kept: kind, header and body.
    package struct FinalAnswer: Equatable, Sendable {
        package let kind: MessageKind
        package let header: JSON?
        package let body: JSON?
        package init(kind: MessageKind, header: JSON?, body: JSON?) { self.kind = kind; self.header = header; self.body = body }
        var size: Int { (header?.canonicalData.count ?? 0) + (body?.canonicalData.count ?? 0) }
        var isCancelled: Bool { kind == .error && body?["code"]?.stringValue == ErrorCode.cancelled.rawValue }
    }

    private struct Run {
        var waiters: [Waiter] = []
        var final: FinalAnswer?
        var endedAt: UInt64 = 0
        var size = 0
    }

    /// Longest run key taken from a header (the hosts send 64 hex digits).
    package static let maximumKeyLength = 128
    package let window: Duration
    package let maximumEntries: Int
    package let maximumBytes: Int
    private let lock = Lock()
    private var runs: [String: Run] = [:]
    /// Keys in the order their runs began: the oldest ended run is dropped first.
    private var order: [String] = []
    private var bytes = 0

    package init(window: Duration = .seconds(600), maximumEntries: Int = 4_096, maximumBytes: Int = 16 << 20) {
        self.window = window
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// The delivery header's `run_key`, or nil when it has no usable one.
    package static func key(in header: JSON) -> String? {
        guard let key = header["run_key"]?.stringValue, !key.isEmpty, key.utf8.count <= maximumKeyLength else { return nil }
        return key
    }

    package var count: Int { lock.withLock { runs.count } }

    /// What to do with a delivery of `key` from `waiter`.
    package func claim(_ key: String, by waiter: Waiter, now: UInt64 = MonotonicClock.now()) -> Verdict {
        lock.withLock {
            prune(now: now)
            if var run = runs[key] {
                if let final = run.final { return .done(final) }
                run.waiters.append(waiter)
                runs[key] = run
                return .join
            }
            if runs.count >= maximumEntries && !evictOldestEnded() { return .untracked }
            runs[key] = Run()
            order.append(key)
            return .run
        }
    }

    /// The run of `key` ended with `final`: keeps it (see the type's description) and
    /// returns the deliveries that joined it, each to be answered with it.
    package func finish(_ key: String, with final: FinalAnswer, now: UInt64 = MonotonicClock.now()) -> [Waiter] {
        lock.withLock {
            guard var run = runs[key] else { return [] }
            let waiters = run.waiters
            let size = final.size
            if final.isCancelled || size > maximumBytes / 4 {
                forget(key)
                return waiters
            }
            run.waiters = []
            run.final = final
            run.endedAt = now
            run.size = size
            runs[key] = run
            bytes += size
            while bytes > maximumBytes, evictOldestEnded() {}
            return waiters
        }
    }

    /// Removes a waiting delivery (its host cancelled it); whether it was one.
    package func dropWaiter(_ waiter: Waiter) -> Bool {
        lock.withLock {
            for (key, var run) in runs {
                if let i = run.waiters.firstIndex(of: waiter) {
                    run.waiters.remove(at: i)
                    runs[key] = run
                    return true
                }
            }
            return false
        }
    }

    /// A host is lost: its waiting deliveries can't be answered.
    package func dropLink(_ link: Int) {
        lock.withLock {
            for (key, var run) in runs where run.waiters.contains(where: { $0.link == link }) {
                run.waiters.removeAll { $0.link == link }
                runs[key] = run
            }
        }
    }

    private func prune(now: UInt64) {
        let limit = UInt64(window.wholeMilliseconds) * 1_000_000
        let stale = order.filter { key in
            guard let run = runs[key], run.final != nil else { return false }
            return now &- run.endedAt > limit
        }
        stale.forEach(forget)
    }

    private func evictOldestEnded() -> Bool {
        guard let key = order.first(where: { runs[$0]?.final != nil }) else { return false }
        forget(key)
        return true
    }

    private func forget(_ key: String) {
        if let run = runs.removeValue(forKey: key) { bytes -= run.final == nil ? 0 : run.size }
        order.removeAll { $0 == key }
    }
}
