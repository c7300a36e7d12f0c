import Foundation

/// How long a process has been running, from /proc (Linux): its start time in clock
/// ticks since boot (`/proc/PID/stat`, field 22) against the uptime (`/proc/uptime`).
enum ProcessAge {
    /// Seconds since `pid` started, or nil when /proc does not say (it has exited).
    static func seconds(_ pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let uptimeText = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let uptime = uptimeText.split(separator: " ").first.flatMap({ Double($0) }) else { return nil }
        // The command name (field 2) is in parentheses and may contain spaces.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 is fields[19].
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard hertz > 0 else { return nil }
        return max(0, uptime - ticks / hertz)
    }
}
