import Foundation
import IntentBusProcess

/// `memory_limit` and `cpu_limit` breaches (docs/lifecycle.md, "Limits and checksums");
/// the `sha256` check and the rlimit itself happen where the shell spawns
/// (Supervision/ProcessGuards.swift).
extension RouterCore {
    /// At a heartbeat check: a process whose resident memory is above its
    /// `memory_limit` is killed, and its exit is reported as that breach. True when it was.
    func overMemoryLimit(_ slot: PluginSlot, pid: pid_t) -> Bool {
        guard let limit = slot.spec.guards.memoryLimit, pid > 0, let resident = effects.residentBytes(pid),
              resident > limit else { return false }
        let breach = "memory_limit exceeded: \(Self.mebibytes(resident)) resident, the limit is \(Self.mebibytes(limit))"
        slot.limitBreach = breach
        logger.error("plugin \(slot.spec.id) (pid \(pid)): \(breach); killing it (SIGKILL)")
        effects.signal(pid, SIGKILL)
        return true
    }

    /// What to add to a crash report when the process broke a limit: the memory breach the
    /// host found, or SIGXCPU, which only `cpu_limit` sends. Clears the breach.
    func limitNote(_ slot: PluginSlot, _ status: ExitStatus) -> String {
        if let breach = slot.limitBreach {
            slot.limitBreach = nil
            return ": \(breach)"
        }
        if case .signalled(SIGXCPU) = status, let limit = slot.spec.guards.cpuLimit {
            return ": cpu_limit exceeded (\(limit.humanText) of CPU time)"
        }
        return ""
    }

    static func mebibytes(_ bytes: UInt64) -> String {
        "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MiB"
    }
}

extension RouterEffects {
    func residentBytes(_ pid: pid_t) -> UInt64? { ProcessGuards.residentBytes(pid) }
}
