/// The allowed range of every number in the manifest (docs/manifest.md, "Limits").
///
/// A value outside its range is an error at its `file:line:column` that names the key
/// and the range, so that no manifest can carry a number the host's arithmetic cannot
/// hold (a `timeout: 5124096h` used to load, then crash the host on the first request).
package enum ManifestLimits {
    /// `plugins[].timeout`: 1 ms to 24 hours.
    package static let timeout = Duration.milliseconds(1)...Duration.seconds(24 * 3600)
    /// `host.conversation_timeout`: 1 ms to 24 hours.
    package static let conversationTimeout = Duration.milliseconds(1)...Duration.seconds(24 * 3600)
    /// `plugins[].priority`: only compared, but bounded like every other number.
    package static let priority = -1_000_000...1_000_000
    /// `host.peers`: other hosts of one deployment a manifest may name.
    package static let maximumPeers = 64
    /// `plugins[].max_in_flight`: requests one plugin may hold at once.
    package static let maxInFlight = 1...100_000
}

extension Duration {
    /// The duration as a manifest writes it, in the largest unit that divides it:
    /// `24h`, `90m`, `10s`, `250ms`; finer values in seconds with a fraction.
    /// Exact for any value (no arithmetic that could overflow).
    var configText: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 {
            if seconds != 0, seconds % 3600 == 0 { return "\(seconds / 3600)h" }
            if seconds != 0, seconds % 60 == 0 { return "\(seconds / 60)m" }
            return "\(seconds)s"
        }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        if attoseconds % perMillisecond == 0, seconds >= 0 {
            let milliseconds = attoseconds / perMillisecond
            if seconds < 1_000_000 { return "\(seconds * 1000 + milliseconds)ms" }
            let fraction = String(milliseconds)
            return "\(seconds).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
        }
        return "\(Double(seconds) + Double(attoseconds) / 1e18)s"
    }
}
