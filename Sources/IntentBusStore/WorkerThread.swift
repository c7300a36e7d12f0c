import Foundation

/// A thread of its own that runs jobs in the order submitted, for work the router thread
/// must never wait on (an SQLite commit is an fsync). Each wake-up hands `run` every job
/// queued so far, so a burst can commit in one transaction. At most `limit` jobs wait
/// (counted by `weight`: a job that carries many, a batch of donations, counts as many);
/// `submit` refuses more (the caller decides what that means).
///
/// With a `linger`, jobs that nobody waits for (`isUrgent` false) are gathered for up to
/// that long before `run` gets them, and queuing them does not wake the thread: a steady
/// stream of them costs one wake-up and one commit per `linger` instead of one per job.
/// An urgent job ends the wait at once (the batch then runs, in order, before it).
///
/// Used by `ChoiceWriter` and `ShortcutWriter`.
///
/// Threading: `submit` and `stop` from any thread; `run` only on the worker thread.
/// `@unchecked Sendable`: `queue`, `stopping`, `finished` and `refused` are guarded by
/// `condition`.
package final class WorkerThread<Job: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var stopping = false
    private var finished = false
    private var refused = 0
    /// The queued jobs' weights, summed.
    private var queuedWeight = 0
    /// The thread is gathering jobs that can wait: only an urgent one wakes it.
    private var lingering = false
    private let limit: Int
    private let linger: TimeInterval
    private let isUrgent: @Sendable (Job) -> Bool
    private let weight: @Sendable (Job) -> Int
    private let run: ([Job], _ refusedSinceLast: Int) -> Void

    /// Starts the thread; `run` gets each batch and how many jobs were refused since the
    /// previous one. `linger` (seconds, 0 for none) and `isUrgent`: see the type's comment.
    package init(name: String, limit: Int, linger: TimeInterval = 0, isUrgent: @escaping @Sendable (Job) -> Bool = { _ in true },
         weight: @escaping @Sendable (Job) -> Int = { _ in 1 }, run: @escaping @Sendable ([Job], Int) -> Void) {
        self.limit = limit
        self.linger = max(0, linger)
        self.isUrgent = isUrgent
        self.weight = weight
        self.run = run
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Queues `job`; false (and counted, by its weight) when it would take the queue past
    /// `limit` or the thread is stopping.
    @discardableResult
    package func submit(_ job: Job) -> Bool {
        let w = weight(job)
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queuedWeight < limit, w <= limit - queuedWeight || queue.isEmpty else {
            refused += w
            return false
        }
        queue.append(job)
        queuedWeight += w
        if !lingering || isUrgent(job) || queuedWeight >= limit / 2 { condition.signal() }
        return true
    }

    /// Finishes the queued jobs, then stops the thread; returns once it has.
    package func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if linger > 0 && !stopping {
                let deadline = Date(timeIntervalSinceNow: linger)
                lingering = true
                while !stopping && queuedWeight < limit / 2 && !queue.contains(where: isUrgent)
                        && condition.wait(until: deadline) {}
                lingering = false
            }
            if queue.isEmpty {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let jobs = queue
            queue.removeAll(keepingCapacity: true)
            queuedWeight = 0
            let lost = refused
            refused = 0
            condition.unlock()
            run(jobs, lost)
        }
    }
}

/// A value handed to a worker thread that, from then on, is the only one to use it (a
/// store's SQLite connection). `@unchecked Sendable` on that promise.
package final class WorkerOwned<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
