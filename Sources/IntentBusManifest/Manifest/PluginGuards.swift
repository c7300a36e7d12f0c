import Foundation

/// A plugin's resource limits and executable checksum (`memory_limit`, `cpu_limit`,
/// `sha256`; docs/lifecycle.md, "Limits and checksums").
package struct PluginGuards: Sendable, Equatable {
    /// Resident memory, in bytes, above which the host stops the process.
    package var memoryLimit: UInt64?
    /// CPU time over the process's life (RLIMIT_CPU).
    package var cpuLimit: Duration?
    /// The executable's SHA-256, lowercase hex; checked before each start.
    package var sha256: String?

    package init() {}
}

extension ManifestAssembler {
    static let memoryLimitRange: ClosedRange<UInt64> = (1 << 20)...(1 << 40)
    static let cpuLimitRange: ClosedRange<Duration> = .seconds(1) ... .seconds(86_400)

    /// Decodes `memory_limit` (bytes, or a number with K, M, G or T: binary units, with or
    /// without `iB`), `cpu_limit` (a duration) and `sha256` (64 hex digits).
    func decodeGuards(_ m: YAMLMapping) -> PluginGuards {
        var guards = PluginGuards()
        if let raw = m.optional("memory_limit", as: Marked<String>.self) {
            if let bytes = Self.byteCount(raw.value), Self.memoryLimitRange.contains(bytes) {
                guards.memoryLimit = bytes
            } else {
                error("must be a size from 1M to 1T (e.g. 512M, 2G, or bytes), got '\(raw.value)'", key: "memory_limit", at: raw.mark)
            }
        }
        if let cpu = m.optional("cpu_limit", as: Marked<Duration>.self) {
            if Self.cpuLimitRange.contains(cpu.value) {
                guards.cpuLimit = cpu.value
            } else {
                error("must be within 1s…24h, got \(cpu.value.configText)", key: "cpu_limit", at: cpu.mark)
            }
        }
        if let sum = m.optional("sha256", as: Marked<String>.self) {
            let hex = sum.value.lowercased()
            if hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) {
                guards.sha256 = hex
            } else {
                error("must be 64 hexadecimal digits (what sha256sum prints), got '\(sum.value)'", key: "sha256", at: sum.mark)
            }
        }
        return guards
    }

    /// `512M` → 536870912; nil when it is not a size.
    static func byteCount(_ text: String) -> UInt64? {
        var digits = text.trimmingCharacters(in: .whitespaces)
        var unit: UInt64 = 1
        for (suffix, factor) in [("KiB", 10), ("MiB", 20), ("GiB", 30), ("TiB", 40), ("K", 10), ("M", 20), ("G", 30), ("T", 40)]
        where digits.hasSuffix(suffix) {
            digits = String(digits.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            unit = 1 << UInt64(factor)
            break
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = UInt64(digits) else { return nil }
        let (bytes, overflow) = n.multipliedReportingOverflow(by: unit)
        return overflow ? nil : bytes
    }
}
