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
    /// The same for the host's donations of one round of the router's loop, handed over
    /// together (`ShortcutCenter.roundEnded`): one queue operation for all of them.
    case hostDonations(HostDonationBatch)
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
/// The host's own donations are gathered first (`gather`, on the router thread) and handed
/// over together once per round of the router's loop (`handOver`), or before any other job
/// (`submit`), so the jobs still run in the order the router made them.
///
/// Threading: `submit`, `stop` from any thread (the queue is a `WorkerThread`); `gather`,
/// `handOver`, and `submit` and `stop` while donations are gathered, on the router thread.
/// `@unchecked Sendable`: `store` is used only by the worker thread, and closed by `stop`
/// once that thread has finished; `gathered` only by the router thread.
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
    /// The host's donations of this round, not yet handed over (router thread).
    private var gathered = HostDonationBatch()

    init(store: ShortcutStore, logger: Logger, post: @escaping @Sendable (RouterEvent) -> Void) {
        self.store = store
        let owned = WorkerOwned((store, DonationMerger()))
        worker = WorkerThread(name: "intentbus-shortcut-writer", limit: Self.maximumQueued, linger: Self.linger,
                              isUrgent: { if case .work = $0 { true } else { false } },
                              weight: { if case .hostDonations(let batch) = $0 { max(1, batch.count) } else { 1 } }) { jobs, lost in
            if lost > 0 { logger.warning("shortcut store: \(lost) donation(s) dropped, the writer's queue was full") }
            ShortcutWriter.perform(jobs, store: owned.value.0, merger: owned.value.1, logger: logger, post: post)
        }
    }

    /// Queues `job` after the donations gathered so far; false when the queue is full (a
    /// donation is then dropped).
    @discardableResult
    func submit(_ job: ShortcutJob) -> Bool {
        handOver()
        return worker.submit(job)
    }

    /// Keeps the host's donation of a successful request (its body's bytes are copied) for
    /// the next `handOver`.
    func gather(intent: String, plugin: String, client: String?, body: UnsafeRawBufferPointer, at: Date) {
        gathered.append(intent: intent, plugin: plugin, client: client, body: body, at: at)
        if gathered.count >= Self.maximumGathered { handOver() }
    }

    /// At most this many donations are gathered before they are handed over.
    static let maximumGathered = 256

    /// Queues the gathered donations as one job (dropped, and counted, when the queue is full).
    func handOver() {
        guard !gathered.isEmpty else { return }
        let batch = gathered
        gathered = HostDonationBatch()
        worker.submit(.hostDonations(batch))
    }

    /// Finishes the queued jobs, then stops the thread; returns once it has.
    func stop() {
        handOver()
        worker.stop()
        store.close()
    }

    private static func perform(_ jobs: [ShortcutJob], store: ShortcutStore, merger: DonationMerger, logger: Logger,
                                post: @Sendable (RouterEvent) -> Void) {
        var batch: [Donation] = []
        var host = HostDonationBatch()
        func flush() {
            guard !batch.isEmpty || !host.isEmpty else { return }
            do { try store.donate(batch: batch, host: host, merger: merger) } catch { logger.error("shortcut store: \(error)") }
            batch.removeAll()
            host = HostDonationBatch()
        }
        for job in jobs {
            switch job {
            case .donate(let donation):
                batch.append(donation)
            case .hostDonation(let donation):
                host.append(HostDonationBatch([donation]))
            case .hostDonations(let donations):
                if host.isEmpty { host = donations } else { host.append(donations) }
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
