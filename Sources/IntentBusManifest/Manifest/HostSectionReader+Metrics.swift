import Foundation

extension HostSectionReader {
    /// The shortest and longest `metrics_interval`.
    static let metricsIntervalRange: ClosedRange<Duration> = .seconds(1) ... .seconds(3_600)

    /// `host.metrics_file` (resolved against the manifest's directory; must end in `.prom`,
    /// as node_exporter's textfile collector reads only those) and `host.metrics_interval`.
    func decodeMetrics(file: Marked<String>?, interval: Marked<Duration>?, into settings: inout HostSettings) {
        if let file {
            if file.value.isEmpty {
                error("must not be empty", key: "metrics_file", at: file.mark)
            } else if !file.value.hasSuffix(".prom") {
                error("must end in .prom (node_exporter's textfile collector reads only *.prom), got '\(file.value)'",
                      key: "metrics_file", at: file.mark)
            } else {
                settings.metricsFile = resolve(file.value)
            }
        }
        if let interval {
            if Self.metricsIntervalRange.contains(interval.value) {
                settings.metricsInterval = interval.value
            } else {
                error("must be within 1s…1h, got \(interval.value.humanText)", key: "metrics_interval", at: interval.mark)
            }
        }
    }
}
