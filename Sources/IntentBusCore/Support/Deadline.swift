import Foundation

/// Monotonic time in nanoseconds, for deadlines that must not jump with the wall clock.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// The instant `duration` from now, saturating at `UInt64.max` (a deadline that never
    /// comes) instead of overflowing: a caller's huge timeout must not stop the process.
    public static func deadline(after duration: Duration) -> UInt64 {
        let (sum, overflow) = now().addingReportingOverflow(duration.nanoseconds)
        return overflow ? .max : sum
    }
}

extension Duration {
    /// The duration in whole nanoseconds. Saturates: negative durations become 0, and
    /// durations beyond `UInt64.max` nanoseconds (about 584 years) become `UInt64.max`.
    public var nanoseconds: UInt64 {
        let (s, atto) = components
        if s < 0 { return 0 }
        let (whole, overflow) = UInt64(s).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, carry) = whole.addingReportingOverflow(UInt64(max(atto, 0) / 1_000_000_000))
        return carry ? .max : sum
    }

    /// The duration in milliseconds, as a Double, for messages.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// Whole milliseconds for the wire (`timeout_ms`), rounded, within 0…`Int64.max`.
    public var wholeMilliseconds: Int64 {
        let (s, atto) = components
        if s < 0 { return 0 }
        let (whole, overflow) = s.multipliedReportingOverflow(by: 1000)
        if overflow { return .max }
        let rounded = (atto + 500_000_000_000_000) / 1_000_000_000_000_000
        let (sum, carry) = whole.addingReportingOverflow(rounded)
        return carry ? .max : sum
    }

    /// "10 s", "250 ms": how people read a timeout.
    public var humanText: String {
        let ms = milliseconds
        if ms >= 1000, ms.truncatingRemainder(dividingBy: 1000) == 0 { return "\(Int(ms / 1000)) s" }
        if ms >= 1000 { return String(format: "%.1f s", ms / 1000) }
        return "\(Int(ms)) ms"
    }
}
