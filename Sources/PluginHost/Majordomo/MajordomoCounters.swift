import IntentBusCore

/// What the Majordomo endpoint has done since the host started, for `ib.status` (its
/// `mdp` section) and `ib.metrics`: requests from MDP clients, the errors they were
/// answered with by code (those the endpoint gave itself, such as `forbidden` or
/// `bad_frame`, and those of the core alike), how many waited in the MDP queue, and the
/// READYs refused (docs/mdp.md, docs/operations.md).
///
/// Owned by the router thread.
final class MajordomoCounters {
    var requests = 0
    var replies = 0
    private(set) var errors: [String: Int] = [:]
    /// Requests that waited in the MDP queue for a plugin at its `max_in_flight`.
    var queuedTotal = 0
    /// Requests waiting in it now, and the bound (`mdp_queue`).
    var queued = 0
    let queueLimit: Int
    /// READYs the host refused (an unlisted service, the wrong key).
    var refusedReadies = 0
    var workers = 0

    init(queueLimit: Int) { self.queueLimit = queueLimit }

    func error(_ code: String) { errors[code, default: 0] += 1 }

    var json: JSON {
        [
            "requests": .int(Int64(requests)), "replies": .int(Int64(replies)),
            "errors": .object(errors.mapValues { .int(Int64($0)) }),
            "queued": .int(Int64(queued)), "queued_total": .int(Int64(queuedTotal)), "queue_limit": .int(Int64(queueLimit)),
            "refused_ready": .int(Int64(refusedReadies)), "workers": .int(Int64(workers)),
        ]
    }
}
