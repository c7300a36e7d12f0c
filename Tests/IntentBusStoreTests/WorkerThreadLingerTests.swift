import Foundation
import Testing
@testable import IntentBusStore

/// `WorkerThread` with a linger: jobs nobody waits for gather; an urgent one runs them at once.
@Suite("WorkerThread: lingering batches")
struct WorkerThreadLingerTests {
    /// What the worker ran, batch by batch.
    private final class Batches: @unchecked Sendable {
        // @unchecked: `batches` only under `lock`.
        private let lock = NSLock()
        private var batches: [[Int]] = []
        func add(_ jobs: [Int]) { lock.lock(); batches.append(jobs); lock.unlock() }
        var all: [[Int]] { lock.lock(); defer { lock.unlock() }; return batches }
    }

    private func waitFor(_ condition: () -> Bool, seconds: Double = 5) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }

    @Test("jobs that can wait gather into one batch; an urgent one runs them, in order, at once")
    func urgentEndsTheLinger() {
        let seen = Batches()
        let worker = WorkerThread<Int>(name: "test-linger", limit: 100, linger: 30, isUrgent: { $0 < 0 }) { jobs, _ in
            seen.add(jobs)
        }
        for job in 1...5 { worker.submit(job) }
        usleep(100_000)
        #expect(seen.all.isEmpty, "ran before the linger ended: \(seen.all)")
        let started = Date()
        worker.submit(-1)
        #expect(waitFor { seen.all.flatMap { $0 } == [1, 2, 3, 4, 5, -1] }, "\(seen.all)")
        #expect(Date().timeIntervalSince(started) < 5)
        worker.stop()
    }

    @Test("the linger ends on its own, and stop() runs what is left")
    func lingerEndsAndStopFlushes() {
        let seen = Batches()
        let worker = WorkerThread<Int>(name: "test-linger", limit: 100, linger: 0.05, isUrgent: { _ in false }) { jobs, _ in
            seen.add(jobs)
        }
        worker.submit(1)
        worker.submit(2)
        #expect(waitFor { seen.all == [[1, 2]] }, "\(seen.all)")
        let slow = WorkerThread<Int>(name: "test-linger", limit: 100, linger: 30, isUrgent: { _ in false }) { jobs, _ in
            seen.add(jobs)
        }
        slow.submit(3)
        usleep(50_000)
        slow.stop()
        #expect(seen.all.last == [3])
        worker.stop()
    }

    @Test("half the limit queued ends the linger: the queue never fills while it waits")
    func fullEnoughEndsTheLinger() {
        let seen = Batches()
        let worker = WorkerThread<Int>(name: "test-linger", limit: 10, linger: 30, isUrgent: { _ in false }) { jobs, _ in
            seen.add(jobs)
        }
        for job in 1...5 { worker.submit(job) }
        #expect(waitFor { seen.all.flatMap { $0 } == [1, 2, 3, 4, 5] }, "\(seen.all)")
        worker.stop()
    }

    @Test("a job's weight counts against the limit: a batch that would pass it is refused, and counted by its weight")
    func weightsCount() {
        let seen = Batches()
        let refused = Batches()
        let worker = WorkerThread<Int>(name: "test-weight", limit: 10, linger: 30, isUrgent: { $0 < 0 },
                                       weight: { $0 < 0 ? 1 : $0 }) { jobs, lost in
            seen.add(jobs)
            refused.add([lost])
        }
        #expect(worker.submit(4))
        #expect(worker.submit(4))
        #expect(!worker.submit(3), "4 + 4 + 3 is past 10")
        #expect(worker.submit(1))
        #expect(worker.submit(-1))   // urgent, weight 1: 10 in all
        #expect(waitFor { seen.all.flatMap { $0 } == [4, 4, 1, -1] }, "\(seen.all)")
        #expect(refused.all.first == [3], "\(refused.all)")
        // Emptied: a batch heavier than the limit still goes when nothing waits.
        #expect(worker.submit(12))
        worker.stop()
        #expect(seen.all.flatMap { $0 }.last == 12)
    }
}
