import Foundation
import IntentBus

/// What the shortcut store's thread does, in the order submitted.
enum ShortcutJob: Sendable {
    /// Record a donation; nobody waits for it. Consecutive ones commit in one
    /// transaction, so that one fsync covers a burst of requests.
    case donate(Donation)
    /// Delete a plugin's donations (its REPLY header asked); nobody waits for it.
    case deleteDonations(DonationSelector, plugin: String)
    /// Anything else, answered through the router under `id`.
    case work(id: UInt64, run: @Sendable (ShortcutStore) -> Result<JSON, BusError>)
}

/// Runs the shortcut store on a thread of its own, as `ChoiceWriter` does for choices:
/// a commit is an fsync (`synchronous=FULL`, a millisecond or more), and the router
/// thread must never wait for one. Jobs run in order; a `work` job's outcome goes back to
/// the router thread as `RouterEvent.extensionFinished`, so that a client's answer is
/// sent after the commit.
///
/// Bounded: at most `maximumQueued` jobs wait; a donation beyond that is dropped (and
/// counted), a `work` job is refused at once with `busy`.
///
/// Threading: `submit`, `stop` from any thread. `@unchecked Sendable`: `queue`,
/// `stopping`, `finished` and `dropped` are guarded by `condition`; `store` is used only
/// by the writer thread once it has started.
final class ShortcutWriter: @unchecked Sendable {
    static let maximumQueued = 10_000

    private let store: ShortcutStore
    private let condition = NSCondition()
    private var queue: [ShortcutJob] = []
    private var stopping = false
    private var finished = false
    private var dropped = 0
    private let post: @Sendable (RouterEvent) -> Void
    private let logger: Logger

    init(store: ShortcutStore, logger: Logger, post: @escaping @Sendable (RouterEvent) -> Void) {
        self.store = store
        self.logger = logger
        self.post = post
        let thread = Thread { [self] in run() }
        thread.name = "intentbus-shortcut-writer"
        thread.start()
    }

    /// Queues `job`; false when the queue is full (a donation is then dropped).
    @discardableResult
    func submit(_ job: ShortcutJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queue.count < Self.maximumQueued else {
            dropped += 1
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
        store.close()
    }

    private func run() {
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
            let lost = dropped
            dropped = 0
            condition.unlock()
            if lost > 0 { logger.warning("shortcut store: \(lost) donation(s) dropped, the writer's queue was full") }
            perform(jobs)
        }
    }

    private func perform(_ jobs: [ShortcutJob]) {
        var batch: [Donation] = []
        func flush() {
            guard !batch.isEmpty else { return }
            do { try store.donate(batch: batch) } catch { logger.error("shortcut store: \(error)") }
            batch.removeAll()
        }
        for job in jobs {
            switch job {
            case .donate(let donation):
                batch.append(donation)
            case .deleteDonations(let selector, let plugin):
                flush()
                do {
                    let removed = try store.deleteDonations(selector, plugin: plugin)
                    logger.info("plugin \(plugin) deleted \(removed) donation(s)")
                } catch {
                    logger.error("shortcut store: \(error)")
                }
            case .work(let id, let run):
                flush()
                post(.extensionFinished(id: id, result: run(store)))
            }
        }
        flush()
    }
}
