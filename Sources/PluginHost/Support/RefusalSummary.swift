import Foundation
import IntentBusCore

/// Logs refusals that an outsider can cause at will without letting them grow the log
/// at will: after a quiet `interval`, the next refusal gets its own line at once; those
/// that follow within the interval are only counted, and `summarize` writes one line
/// with the count of each reason once the interval has passed.
///
/// Threading: a value owned by whoever refuses (the router thread, the connection guard).
struct RefusalSummary {
    /// What refuses, the start of every line ("connection budget").
    let subject: String
    /// Nanoseconds between lines.
    let interval: UInt64
    private var counts: [String: Int] = [:]
    /// Reasons in the order they first came since the last line.
    private var order: [String] = []
    private var lastLine: UInt64?

    /// The level of every line.
    let level: Logger.Level

    init(subject: String, interval: UInt64 = 10_000_000_000, level: Logger.Level = .warning) {
        self.subject = subject
        self.interval = interval
        self.level = level
    }

    /// Refused for `reason` (a short key, such as "uid 1000"); `detail` is the line
    /// written when this refusal is logged on its own, with `metadata` (`request`).
    mutating func refused(_ reason: String, detail: @autoclosure () -> String, metadata: [(String, String)] = [],
                          now: UInt64, logger: Logger) {
        if let lastLine, now - lastLine < interval {
            if counts[reason] == nil { order.append(reason) }
            counts[reason, default: 0] += 1
            return
        }
        summarize(now: now, logger: logger)  // what was counted before this one
        lastLine = now
        logger.log(level, "\(subject): \(detail()) (further refusals are summed up every \(interval / 1_000_000_000) s)", metadata)
    }

    /// Writes the counts since the last line, when there are any and `interval` has passed.
    mutating func summarize(now: UInt64, logger: Logger, state: @autoclosure () -> String = "") {
        guard !order.isEmpty, let lastLine, now - lastLine >= interval else { return }
        let total = counts.values.reduce(0, +)
        let reasons = order.prefix(8).map { "\($0) ×\(counts[$0]!)" }.joined(separator: ", ")
        let more = order.count > 8 ? " and \(order.count - 8) more reasons" : ""
        let tail = state()
        logger.log(level, "\(subject): refused \(total) more in the last \((now - lastLine) / 1_000_000_000) s: \(reasons)\(more)\(tail.isEmpty ? "" : "; \(tail)")")
        counts.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        self.lastLine = now
    }
}
