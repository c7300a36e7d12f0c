import Foundation

/// Monotonic time in nanoseconds, for deadlines that must not jump with the wall clock.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (negative durations become 0).
    public var nanoseconds: UInt64 {
        let (s, atto) = components
        if s < 0 { return 0 }
        return UInt64(s) * 1_000_000_000 + UInt64(atto / 1_000_000_000)
    }

    /// The duration in milliseconds, as a Double, for messages.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// "10 s", "250 ms": how people read a timeout.
    public var humanText: String {
        let ms = milliseconds
        if ms >= 1000, ms.truncatingRemainder(dividingBy: 1000) == 0 { return "\(Int(ms / 1000)) s" }
        if ms >= 1000 { return String(format: "%.1f s", ms / 1000) }
        return "\(Int(ms)) ms"
    }
}
