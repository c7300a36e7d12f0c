import Foundation

/// How a figure compares with its target.
enum Verdict: String, Encodable {
    case pass = "PASS"
    case fail = "FAIL"
    /// Reported for context; no target applies.
    case info = "info"
    /// The feature to measure does not exist yet.
    case notMeasurable = "not measurable yet"
}

/// One line of the table: a figure, its baseline, the ratio and the target.
struct ResultRow: Encodable {
    var scenario: String
    var metric: String
    /// The measured figure, formatted for people ("312 µs").
    var value: String
    /// What the figure is compared with, formatted ("relay 250 µs").
    var baseline: String
    /// value / baseline, or nil where there is no baseline.
    var ratio: Double?
    var target: String
    var verdict: Verdict
    /// The raw numbers behind `value` and `baseline`, in the unit named.
    var rawValue: Double?
    var rawBaseline: Double?
    var unit: String
    var note: String?
}

/// Formats numbers the way the table shows them.
enum Format {
    static func micros(_ ns: Double) -> String {
        let us = ns / 1_000
        if us >= 10_000 { return String(format: "%.1f ms", us / 1_000) }
        return String(format: "%.0f µs", us)
    }
    static func rate(_ perSecond: Double) -> String {
        perSecond >= 10_000 ? String(format: "%.1fk req/s", perSecond / 1_000) : String(format: "%.0f req/s", perSecond)
    }
    static func bytesRate(_ perSecond: Double) -> String { String(format: "%.0f MB/s", perSecond / 1e6) }
    static func megabytes(_ kb: Double) -> String { String(format: "%.1f MB", kb / 1024) }
    static func millis(_ ns: Double) -> String { String(format: "%.1f ms", ns / 1e6) }
    static func ratio(_ r: Double?) -> String { r.map { String(format: "%.2f×", $0) } ?? "–" }
}

/// Prints the rows as a Markdown table, which reads well in a terminal and pastes into
/// docs/performance.md as it is.
func renderTable(_ rows: [ResultRow]) -> String {
    let header = ["scenario", "metric", "host", "baseline", "ratio", "target", "result"]
    var lines = [header]
    for r in rows {
        // Three decimals where a target judges the ratio, so that 0.597 never shows as a
        // failing "0.60×".
        let ratio = r.target == "–" ? Format.ratio(r.ratio) : r.ratio.map { String(format: "%.3f×", $0) } ?? "–"
        lines.append([r.scenario, r.metric, r.value, r.baseline, ratio, r.target, r.verdict.rawValue])
    }
    let widths = header.indices.map { col in lines.map { $0[col].count }.max() ?? 0 }
    func render(_ cells: [String]) -> String {
        "| " + cells.indices.map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            .joined(separator: " | ") + " |"
    }
    var out = [render(lines[0]), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
    out += lines.dropFirst().map(render)
    var notes: [String] = []
    for r in rows { if let n = r.note { notes.append("- \(r.scenario), \(r.metric): \(n)") } }
    return (out + (notes.isEmpty ? [] : [""] + notes)).joined(separator: "\n")
}

/// Nearest-rank percentile of unsorted samples.
func percentile(_ samples: [UInt64], _ p: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return Double(sorted[min(max(rank, 0), sorted.count - 1)])
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// The machine a run happened on, so that figures are read in context.
struct MachineInfo: Encodable {
    var cpuModel: String
    var onlineCPUs: Int
    var kernel: String
    var libzmq: String
    var hostname: String

    static func current(zmqVersion: (Int32, Int32, Int32)) -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var u = utsname()
        uname(&u)
        let release = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineInfo(cpuModel: model, onlineCPUs: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), kernel: release,
                           libzmq: "\(zmqVersion.0).\(zmqVersion.1).\(zmqVersion.2)",
                           hostname: ProcessInfo.processInfo.hostName)
    }
}

/// /proc/loadavg's three averages.
func loadAverage() -> [Double] {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).compactMap { Double($0) }
}
