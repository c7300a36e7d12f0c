import IntentBusCLI

/// Numbers given on the command line, checked against their range where they are read.
///
/// A value outside its range, or not a number at all, is a `UsageError` (exit 2) that
/// names the flag and the range: `--timeout must be seconds within 0.001…86400, got 1e13`.
/// Kept apart from `Arguments` so that any argument parser can call it.
enum NumberOption {
    /// `--timeout`: at least a millisecond, at most the manifest's own maximum (24 h).
    static let timeoutSeconds = 0.001...86_400.0

    /// A number of seconds within `range`, as a `Duration` exact to the millisecond.
    static func seconds(_ text: String, flag: String, within range: ClosedRange<Double>) throws(UsageError) -> Duration {
        let value = try number(text, flag: flag, within: range, unit: "seconds")
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    /// A finite number within `range`.
    static func number(_ text: String, flag: String, within range: ClosedRange<Double>, unit: String) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("--\(flag) must be \(unit) within \(format(range.lowerBound))…\(format(range.upperBound)), got \(text)")
        }
        return value
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
