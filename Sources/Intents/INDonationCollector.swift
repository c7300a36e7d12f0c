import Foundation
import IntentBusCore
import IntentBusAppIntents

/// The donations a handler makes while one request runs (`NSUserActivity.becomeCurrent()`,
/// `INInteraction.donate`): they leave with the request's REPLY, on the path every
/// donation takes (docs/shortcuts.md, "Donations"). Found through a task-local value, so
/// a donation made outside a request's task (on another thread, later) has nowhere to go
/// and says so.
package final class INDonationCollector: @unchecked Sendable {
    // @unchecked: `donations` is only touched under `lock`.
    @TaskLocal package static var current: INDonationCollector?
    private let lock = Lock()
    private var donations: [IntentDonation] = []
    private var deletions: [DonationDeletion] = []

    package init() {}

    func add(_ donation: IntentDonation) { lock.withLock { donations.append(donation) } }
    func delete(_ deletion: DonationDeletion) { lock.withLock { deletions.append(deletion) } }

    /// The deletion the REPLY carries (`delete_donations`, one per reply): all of them if
    /// any call deleted all; otherwise the identifiers of every call together, or the
    /// last group when no identifiers were given.
    package var deletion: DonationDeletion? {
        lock.withLock {
            if deletions.contains(where: { if case .all = $0 { true } else { false } }) { return .all }
            let ids = deletions.flatMap { (d: DonationDeletion) -> [String] in if case .identifiers(let ids) = d { ids } else { [] } }
            if !ids.isEmpty { return .identifiers(ids) }
            return deletions.last
        }
    }

    /// The donation the REPLY carries: the last one made (the host records one per reply).
    package var last: IntentDonation? { lock.withLock { donations.last } }
}
