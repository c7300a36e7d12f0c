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

    package init() {}

    func add(_ donation: IntentDonation) { lock.withLock { donations.append(donation) } }

    /// The donation the REPLY carries: the last one made (the host records one per reply).
    package var last: IntentDonation? { lock.withLock { donations.last } }
}
