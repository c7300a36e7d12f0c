import Foundation
@testable import IntentBusProcess
import Testing

/// The one process spawner (module IntentBusProcess) on real processes: /bin/sh scripts.
@Suite("Process spawner")
struct ProcessSpawnerTests {
    private func sh(_ script: String, stdout: StandardStream = .pipe, stderr: StandardStream = .pipe,
                    environment: [String: String] = ["PATH": "/usr/bin:/bin"]) -> ProcessSpec {
        ProcessSpec(executable: "/bin/sh", arguments: ["-c", script], environment: environment,
                    standardOutput: stdout, standardError: stderr)
    }

    /// True when `pid` is no child of this process any more, not even a zombie: /proc has
    /// no such process, or (the pid reused already) one whose parent is someone else.
    private func gone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        // After "pid (comm)": the state, then the parent pid.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 && pid_t(fields[1]) != getpid()
    }

    /// Reads the pipe until `text` has come (or end-of-file): the child is past its setup.
    private func readUntil(_ fd: Int32, _ text: String) -> String {
        var seen = Data()
        var byte: UInt8 = 0
        while !String(decoding: seen, as: UTF8.self).contains(text), read(fd, &byte, 1) == 1 { seen.append(byte) }
        return String(decoding: seen, as: UTF8.self)
    }

    @Test("exit codes come back as .exited, and the child is reaped")
    func exitCodes() throws {
        for code: Int32 in [0, 1, 3, 255] {
            let done = try ChildProcess.run(sh("exit \(code)"), timeout: .seconds(10))
            #expect(done.status == .exited(code))
            #expect(!done.timedOut)
        }
        let child = try ChildProcess.spawn(sh("exit 7", stdout: .null, stderr: .null))
        #expect(child.wait() == .exited(7))
        #expect(gone(child.pid))
        #expect(child.exitStatus == .exited(7))
    }

    @Test("a death by signal comes back as .signalled, with the signal's name")
    func signalDeath() throws {
        let done = try ChildProcess.run(sh("kill -SEGV $$"), timeout: .seconds(10))
        #expect(done.status == .signalled(SIGSEGV))
        #expect(done.status.description == "was killed by signal 11 (SIGSEGV)")
        #expect(done.status.json == ["signal": .int(11)])
    }

    @Test("stdout and stderr are captured apart; the environment and working directory are the spec's")
    func capture() throws {
        let done = try ChildProcess.run(ProcessSpec(
            executable: "/bin/sh", arguments: ["-c", "printf 'out:%s' \"$GREETING\"; printf 'err:%s' \"$(pwd)\" >&2"],
            environment: ["GREETING": "hallo welt"], workingDirectory: "/usr",
            standardOutput: .pipe, standardError: .pipe), timeout: .seconds(10))
        #expect(done.status == .exited(0))
        #expect(String(decoding: done.standardOutput.data, as: UTF8.self) == "out:hallo welt")
        #expect(String(decoding: done.standardError.data, as: UTF8.self) == "err:/usr")
        #expect(!done.standardOutput.wasCut && !done.standardError.wasCut)
    }

    @Test("output above the cap is read and counted but not kept, and the cut is reported")
    func outputCap() throws {
        // 8 MiB on stdout, far more than a pipe holds: the child must not block on it.
        let done = try ChildProcess.run(sh("head -c 8388608 /dev/zero; echo tail >&2"), timeout: .seconds(30), keep: 1000)
        #expect(done.status == .exited(0))
        #expect(done.standardOutput.data.count == 1000)
        #expect(done.standardOutput.total == 8_388_608)
        #expect(done.standardOutput.wasCut)
        #expect(done.standardOutput.text.hasSuffix("(output cut: 8387608 more bytes not kept)"))
        #expect(String(decoding: done.standardError.data, as: UTF8.self) == "tail\n")
        #expect(!done.standardError.wasCut)
    }

    @Test("run with stopWhenCut: a child flooding its output is stopped at the cap, not at the timeout")
    func stopWhenCut() throws {
        let start = ContinuousClock.now
        let done = try ChildProcess.run(ProcessSpec(executable: "/usr/bin/yes", standardOutput: .pipe, standardError: .pipe),
                                        timeout: .seconds(60), keep: 64 * 1024, stopWhenCut: true)
        #expect(done.stoppedWhenCut && !done.timedOut)
        #expect(done.status == .signalled(SIGTERM))
        #expect(done.standardOutput.data.count == 64 * 1024 && done.standardOutput.wasCut)
        #expect(done.standardOutput.data.prefix(4) == Data("y\ny\n".utf8))
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("stdout to a file, appended, and stderr the same descriptor (2>&1)")
    func fileOutput() throws {
        let path = NSTemporaryDirectory() + "spawner-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for word in ["one", "two"] {
            let child = try ChildProcess.spawn(sh("echo \(word); echo \(word)-err >&2",
                                                  stdout: .file(path, append: true), stderr: .sameAsOutput))
            #expect(child.standardOutput == nil && child.standardError == nil)
            #expect(child.wait() == .exited(0))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\none-err\ntwo\ntwo-err\n")
    }

    @Test("a missing executable, a non-executable file and a bad stream are clear errors; nothing is left open")
    func spawnErrors() throws {
        let fdsBefore = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        let missing = #expect(throws: SpawnError.self) {
            try ChildProcess.spawn(ProcessSpec(executable: "/nonexistent/plugin-x", standardOutput: .pipe))
        }
        #expect(missing?.errno == ENOENT)
        #expect(missing?.description == "executable not found: /nonexistent/plugin-x")
        let plain = NSTemporaryDirectory() + "spawner-plain-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try "not a program".write(toFile: plain, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: plain) }
        let notExecutable = #expect(throws: SpawnError.self) {
            try ChildProcess.spawn(ProcessSpec(executable: plain))
        }
        #expect(notExecutable?.errno == EACCES)
        #expect(notExecutable?.description.contains("permission denied") == true)
        let badFile = #expect(throws: SpawnError.self) {
            try ChildProcess.spawn(sh("true", stdout: .file("/nonexistent/dir/out.log", append: false)))
        }
        #expect(badFile?.description.contains("could not open /nonexistent/dir/out.log") == true)
        let badStream = #expect(throws: SpawnError.self) {
            try ChildProcess.spawn(sh("true", stdout: .sameAsOutput))
        }
        #expect(badStream?.description == "only standard error can be the same as standard output")
        let badDirectory = #expect(throws: SpawnError.self) {
            try ChildProcess.spawn(ProcessSpec(executable: "/bin/true", workingDirectory: "/nonexistent/dir"))
        }
        #expect(badDirectory?.description == "working directory not found: /nonexistent/dir")
        // Other tests open descriptors meanwhile; a leak per failed start would show as 200.
        for _ in 0..<100 {
            _ = try? ChildProcess.spawn(ProcessSpec(executable: "/nonexistent/plugin-x", standardInput: .pipe,
                                                    standardOutput: .pipe, standardError: .pipe))
            _ = try? ChildProcess.spawn(sh("true", stdout: .pipe, stderr: .file("/nonexistent/dir/err.log", append: true)))
        }
        let fdsAfter = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        #expect(fdsAfter < fdsBefore + 50, "descriptors before \(fdsBefore), after \(fdsAfter)")
    }

    @Test("stop: a child that ignores SIGTERM is killed after the grace, reaped, and a second stop is harmless")
    func stopIgnoringTerm() throws {
        // `exec` keeps the ignored SIGTERM in `sleep`; "ready" says the trap is set.
        let child = try ChildProcess.spawn(sh("trap '' TERM; echo ready; exec sleep 30", stderr: .null))
        #expect(readUntil(try #require(child.standardOutput), "ready").contains("ready"))
        defer { close(child.standardOutput ?? -1) }
        #expect(child.wait(timeout: .milliseconds(100)) == nil)
        #expect(child.isRunning)
        let start = ContinuousClock.now
        #expect(child.stop(grace: .milliseconds(400)) == .signalled(SIGKILL))
        let took = ContinuousClock.now - start
        #expect(took >= .milliseconds(400) && took < .seconds(10), "\(took)")
        #expect(gone(child.pid))
        #expect(child.stop() == .signalled(SIGKILL))
        #expect(!child.signal(SIGTERM))
        #expect(!child.isRunning)
    }

    @Test("stop: a child that honours SIGTERM ends by it at once")
    func stopHonouringTerm() throws {
        let child = try ChildProcess.spawn(ProcessSpec(executable: "/bin/sleep", arguments: ["30"]))
        let start = ContinuousClock.now
        #expect(child.stop(grace: .seconds(20)) == .signalled(SIGTERM))
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(gone(child.pid))
    }

    @Test("run: a child still running at the timeout is stopped and reported as timed out")
    func runTimeout() throws {
        let start = ContinuousClock.now
        let done = try ChildProcess.run(sh("echo started; exec sleep 30"), timeout: .milliseconds(300))
        #expect(done.timedOut)
        #expect(done.status == .signalled(SIGTERM))
        #expect(String(decoding: done.standardOutput.data, as: UTF8.self) == "started\n")
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("run: a grandchild that keeps the pipe open does not hold the run after the child exits")
    func grandchildHoldsPipe() throws {
        let start = ContinuousClock.now
        let done = try ChildProcess.run(sh("sleep 5 & echo \"parent done $!\""), timeout: .seconds(20))
        let words = String(decoding: done.standardOutput.data, as: UTF8.self).split(separator: " ")
        if let sleeper = words.last.flatMap({ pid_t($0.dropLast()) }), sleeper > 0 { kill(sleeper, SIGKILL) }  // ours
        #expect(done.status == .exited(0))
        #expect(!done.timedOut)
        #expect(words.prefix(2) == ["parent", "done"])
        #expect(ContinuousClock.now - start < .seconds(4))
    }

    @Test("limits are set on the child (prlimit right after the start), and the pidfd is there")
    func limits() throws {
        let spec = ProcessSpec(executable: "/bin/sleep", arguments: ["30"],
                               limits: [.cpuTime(seconds: 5, killAfter: 2), try #require(ResourceLimit(.openFiles, soft: 64, hard: 128))],
                               ownProcessGroup: true)
        let child = try ChildProcess.spawn(spec)
        defer { child.stop(grace: .seconds(1)) }
        #expect(child.limitFailures.isEmpty)
        #expect(child.pidfd != nil, "no pidfd: errno \(child.pidfdErrno ?? 0)")
        let limits = try String(contentsOfFile: "/proc/\(child.pid)/limits", encoding: .utf8)
        let cpu = limits.split(separator: "\n").first { $0.hasPrefix("Max cpu time") }.map { $0.split(separator: " ") }
        #expect(cpu?.dropFirst(3).prefix(2) == ["5", "7"], "\(limits)")
        let files = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map { $0.split(separator: " ") }
        #expect(files?.dropFirst(3).prefix(2) == ["64", "128"], "\(limits)")
        #expect(getpgid(child.pid) == child.pid)
        #expect(ResourceLimit(.openFiles, soft: 10, hard: 5) == nil)
    }

    @Test("usage readers: resident size, CPU time, children, from /proc")
    func usage() throws {
        let child = try ChildProcess.spawn(sh("sleep 30 & echo ready; wait", stderr: .null))
        defer { close(child.standardOutput ?? -1) }
        _ = readUntil(try #require(child.standardOutput), "ready")
        #expect((ProcessUsage.residentBytes(child.pid) ?? 0) > 0)
        #expect((ProcessUsage.peakResidentBytes(child.pid) ?? 0) >= (ProcessUsage.residentBytes(child.pid) ?? 0) / 2)
        #expect(ProcessUsage.cpuSeconds(child.pid) != nil)
        let grandchildren = ProcessUsage.childPids(child.pid)
        #expect(grandchildren.count == 1)
        for pid in grandchildren { kill(pid, SIGKILL) }  // the sleep: this test started it
        #expect(child.wait(timeout: .seconds(10)) == .exited(0))
        #expect(ProcessUsage.residentBytes(child.pid) == nil)
    }

    @Test("without a pidfd (old kernels): wait, stop after the grace, and run still work, by pid")
    func withoutPidfd() throws {
        var spec = sh("trap '' TERM; echo ready; exec sleep 30", stderr: .null)
        spec.opensPidfd = false
        let child = try ChildProcess.spawn(spec)
        defer { close(child.standardOutput ?? -1) }
        #expect(child.pidfd == nil)
        _ = readUntil(try #require(child.standardOutput), "ready")
        #expect(child.wait(timeout: .milliseconds(50)) == nil)
        #expect(child.stop(grace: .milliseconds(200)) == .signalled(SIGKILL))
        #expect(gone(child.pid))
        #expect(!child.signal(SIGKILL))

        var waited = sh("exit 4", stdout: .null, stderr: .null)
        waited.opensPidfd = false
        let other = try ChildProcess.spawn(waited)
        #expect(other.wait() == .exited(4))  // blocks in waitid(WNOWAIT), then reaps
        #expect(gone(other.pid))

        var captured = sh("printf abc; exit 2")
        captured.opensPidfd = false
        let done = try ChildProcess.run(captured, timeout: .seconds(10))
        #expect(done.status == .exited(2))
        #expect(String(decoding: done.standardOutput.data, as: UTF8.self) == "abc")
    }
}
