import Foundation

/// A thread of its own that runs jobs in the order submitted, for work the router thread
/// must never wait on (an SQLite commit is an fsync). Each wake-up hands `run` every job
/// queued so far, so a burst can commit in one transaction. At most `limit` jobs wait;
/// `submit` refuses more (the caller decides what that means).
///
/// Used by `ChoiceWriter` and `ShortcutWriter`.
///
/// Threading: `submit` and `stop` from any thread; `run` only on the worker thread.
/// `@unchecked Sendable`: `queue`, `stopping`, `finished` and `refused` are guarded by
/// `condition`.
final class WorkerThread<Job: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var stopping = false
    private var finished = false
    private var refused = 0
    private let limit: Int
    private let run: ([Job], _ refusedSinceLast: Int) -> Void

    /// Starts the thread; `run` gets each batch and how many jobs were refused since the
    /// previous one.
    init(name: String, limit: Int, run: @escaping @Sendable ([Job], Int) -> Void) {
        self.limit = limit
        self.run = run
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Queues `job`; false (and counted) when `limit` jobs already wait or the thread is
    /// stopping.
    @discardableResult
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queue.count < limit else {
            refused += 1
            return false
        }
        queue.append(job)
        condition.signal()
        return true
    }

    /// Finishes the queued jobs, then stops the thread; returns once it has.
    func stop() {
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
            if queue.isEmpty {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let jobs = queue
            queue.removeAll(keepingCapacity: true)
            let lost = refused
            refused = 0
            condition.unlock()
            run(jobs, lost)
        }
    }
}

/// A value handed to a worker thread that, from then on, is the only one to use it (a
/// store's SQLite connection). `@unchecked Sendable` on that promise.
final class WorkerOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
