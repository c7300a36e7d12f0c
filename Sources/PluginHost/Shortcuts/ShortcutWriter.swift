import Foundation
import IntentBusCore
import IntentBusStore

/// What the shortcut store's thread does, in the order submitted.
enum ShortcutJob: Sendable {
    /// Record a donation; nobody waits for it. Consecutive ones commit in one
    /// transaction, so that one fsync covers a burst of requests.
    case donate(Donation)
    /// Record the host's own donation of a successful request; coalesced with the
    /// others of its plugin, intent, client, parameters and window (`DonationMerger`).
    case hostDonation(HostDonation)
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
/// Threading: `submit`, `stop` from any thread (the queue is a `WorkerThread`).
/// `@unchecked Sendable`: `store` is used only by the worker thread, and closed by `stop`
/// once that thread has finished.
final class ShortcutWriter: @unchecked Sendable {
    static let maximumQueued = 10_000
    /// How long donations (and the deletions a REPLY asks for) gather before they are
    /// committed together: a request that donates then costs the host one INSERT, and no
    /// wake-up of this thread nor commit of its own, which at one request in flight was
    /// most of a new-style request's cost in the host (docs/performance.md). A `work` job
    /// (a client waits for its answer) runs at once, after the donations queued before it.
    static let linger: TimeInterval = 0.050

    private let store: ShortcutStore
    private let worker: WorkerThread<ShortcutJob>

    init(store: ShortcutStore, logger: Logger, post: @escaping @Sendable (RouterEvent) -> Void) {
        self.store = store
        let owned = WorkerOwned((store, DonationMerger()))
        worker = WorkerThread(name: "intentbus-shortcut-writer", limit: Self.maximumQueued, linger: Self.linger,
                              isUrgent: { if case .work = $0 { true } else { false } }) { jobs, lost in
            if lost > 0 { logger.warning("shortcut store: \(lost) donation(s) dropped, the writer's queue was full") }
            ShortcutWriter.perform(jobs, store: owned.value.0, merger: owned.value.1, logger: logger, post: post)
        }
    }

    /// Queues `job`; false when the queue is full (a donation is then dropped).
    @discardableResult
    func submit(_ job: ShortcutJob) -> Bool { worker.submit(job) }

    /// Finishes the queued jobs, then stops the thread; returns once it has.
    func stop() {
        worker.stop()
        store.close()
    }

    private static func perform(_ jobs: [ShortcutJob], store: ShortcutStore, merger: DonationMerger, logger: Logger,
                                post: @Sendable (RouterEvent) -> Void) {
        var batch: [Donation] = []
        var host: [HostDonation] = []
        func flush() {
            guard !batch.isEmpty || !host.isEmpty else { return }
            do { try store.donate(batch: batch, host: host, merger: merger) } catch { logger.error("shortcut store: \(error)") }
            batch.removeAll()
            host.removeAll()
        }
        for job in jobs {
            switch job {
            case .donate(let donation):
                batch.append(donation)
            case .hostDonation(let donation):
                host.append(donation)
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
