import Foundation
import IntentBusCore

/// Splits a child's output into lines for its `PluginOutputRelay`: bytes come in as they
/// were read, each complete non-empty line goes out, and what is left after the last
/// newline waits for more (or for `finish`, at end-of-file).
///
/// A plugin can write far faster than a log should grow (`yes` fills a pipe at GB/s), so
/// the lines are bounded (docs/reliability.md, "Plugin output"):
/// - a line is cut at `maxLineBytes`, with the number of bytes cut; the rest of the line
///   is counted, never held;
/// - what goes to the log is rate-limited per plugin, a token bucket of
///   `bytesPerSecond` with bursts of `burstBytes`, where each line costs its length
///   plus `lineOverhead` (the prefix the log adds); lines over the rate are dropped and
///   counted, and the count is logged at most every `reportInterval` and at the end.
struct OutputLines {
    static let maxLineBytes = 4_096
    static let bytesPerSecond = 64 * 1_024
    static let burstBytes = 512 * 1_024
    static let lineOverhead = 128
    static let reportInterval: UInt64 = 5_000_000_000

    private var pending: [UInt8] = []
    /// Bytes cut from the line in `pending` so far (it was longer than `maxLineBytes`).
    private var cut = 0
    private var tokens = Double(burstBytes)
    private var refilledAt: UInt64?
    /// Lines dropped since the last report, and in all.
    private(set) var dropped = 0
    private(set) var droppedTotal = 0
    private var reportedAt: UInt64?

    mutating func append(_ bytes: ArraySlice<UInt8>, to relay: PluginOutputRelay, now: UInt64 = MonotonicClock.now()) {
        refill(now)
        var rest = bytes
        while let newline = rest.firstIndex(of: 10) {
            take(rest[rest.startIndex..<newline])
            rest = rest[(newline + 1)...]
            emit(to: relay)
        }
        take(rest)
        reportDropped(to: relay, now: now, force: false)
    }

    /// Relays the unterminated last line, if any, and the count of dropped lines.
    mutating func finish(to relay: PluginOutputRelay, now: UInt64 = MonotonicClock.now()) {
        refill(now)
        if !pending.isEmpty || cut > 0 { emit(to: relay) }
        reportDropped(to: relay, now: now, force: true)
    }

    /// Keeps the start of a line, counting what is beyond `maxLineBytes`.
    private mutating func take(_ part: ArraySlice<UInt8>) {
        let room = Self.maxLineBytes - pending.count
        if part.count <= room {
            pending.append(contentsOf: part)
        } else {
            pending.append(contentsOf: part.prefix(max(0, room)))
            cut += part.count - max(0, room)
        }
    }

    private mutating func emit(to relay: PluginOutputRelay) {
        defer {
            pending.removeAll(keepingCapacity: true)
            cut = 0
        }
        guard !pending.isEmpty else { return }
        let cost = Double(pending.count + Self.lineOverhead)
        guard tokens >= cost else {
            dropped += 1
            droppedTotal += 1
            return
        }
        tokens -= cost
        var line = String(decoding: pending, as: UTF8.self)
        if cut > 0 { line += " … (\(cut) more bytes cut)" }
        relay.relay(line)
    }

    private mutating func refill(_ now: UInt64) {
        if let refilledAt, now > refilledAt {
            tokens = min(Double(Self.burstBytes), tokens + Double(now - refilledAt) * Double(Self.bytesPerSecond) / 1e9)
        }
        refilledAt = now
    }

    private mutating func reportDropped(to relay: PluginOutputRelay, now: UInt64, force: Bool) {
        guard dropped > 0, force || reportedAt.map({ now - $0 >= Self.reportInterval }) ?? true else { return }
        relay.logger.warning("\(dropped) lines of its output were dropped: more than \(Self.bytesPerSecond / 1_024) KiB/s (\(droppedTotal) in all)")
        dropped = 0
        reportedAt = now
    }
}
