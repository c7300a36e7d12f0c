import Foundation

/// What a running process uses, read from /proc: memory, CPU time, its children. Every
/// reader returns nil (or nothing) once the process is gone or the file can't be read.
package enum ProcessUsage {
    /// Its resident size in bytes (/proc/PID/statm).
    package static func residentBytes(_ pid: pid_t) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Its peak resident size in bytes (VmHWM in /proc/PID/status).
    package static func peakResidentBytes(_ pid: pid_t) -> UInt64? {
        statusField("VmHWM", pid: pid).map { $0 * 1024 }
    }

    /// The CPU time (user + system) it has used so far, in seconds.
    package static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": field 3 is the state; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The pids of its children (any thread's).
    package static func childPids(_ pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// A "kB" field of /proc/PID/status ("VmHWM:\t   12345 kB"), in kB.
    static func statusField(_ name: String, pid: pid_t) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return UInt64(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
