import IntentBus

/// What one round on one load process saw. Every request is counted against its answer.
struct LoadRoundResult {
    var sent = 0
    var ok = 0
    var busy = 0
    var otherErrors = 0
    var missing: Int { max(0, sent - ok - busy - otherErrors) }
    var firstError: String?
    /// From the first send to the last answer.
    var elapsedNs: UInt64 = 0
    /// This process's CPU (user + system, every thread, libzmq's I/O thread included).
    var cpuNs: UInt64 = 0
    /// The round trip of every REPLY, in ns.
    var samples: [UInt32] = []

    var json: JSON {
        var o: [String: JSON] = [
            "sent": .int(Int64(sent)), "ok": .int(Int64(ok)), "busy": .int(Int64(busy)),
            "other": .int(Int64(otherErrors)), "missing": .int(Int64(missing)),
            "elapsed_ns": .int(Int64(elapsedNs)), "cpu_ns": .int(Int64(cpuNs)),
        ]
        if let firstError { o["first_error"] = .string(firstError) }
        return .object(o)
    }
}
