import Foundation
import IntentBusProcess

/// `memory_limit` and `cpu_limit` breaches (docs/lifecycle.md, "Limits and checksums");
/// the `sha256` check and the rlimit itself happen where the shell spawns
/// (Supervision/ProcessGuards.swift).
extension RouterCore {
    /// At a heartbeat check: a process whose resident memory is above its
    /// `memory_limit` is killed, and its exit is reported as that breach (the supervisor
    /// keeps it with the process). True when it was.
    func overMemoryLimit(_ slot: PluginSlot, pid: pid_t) -> Bool {
        guard let limit = slot.spec.guards.memoryLimit, pid > 0, let resident = effects.residentBytes(pid),
              resident > limit else { return false }
        let breach = "memory_limit exceeded: \(Self.mebibytes(resident)) resident, the limit is \(Self.mebibytes(limit))"
        perform(slot.life.limitBreached(breach), slot)
        return true
    }

    static func mebibytes(_ bytes: UInt64) -> String {
        "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MiB"
    }
}

extension RouterEffects {
    func residentBytes(_ pid: pid_t) -> UInt64? { ProcessGuards.residentBytes(pid) }
}
