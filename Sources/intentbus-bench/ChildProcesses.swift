import Foundation
import IntentBus
import IntentBusProcess

/// A process the benchmark started (through the one spawner, IntentBusProcess), with the
/// label its messages use. Stopped and reaped through its `ChildProcess` only.
final class BenchChild: Sendable {
    let process: ChildProcess
    let label: String

    init(process: ChildProcess, label: String) {
        self.process = process
        self.label = label
    }

    var pid: pid_t { process.pid }
    /// True while the process has not exited (reaps it when it has).
    var isRunning: Bool { process.isRunning }

    /// SIGTERM, up to `grace` seconds to exit, then SIGKILL; always reaps. Safe to call twice.
    func stop(grace: Double = 3) {
        process.stop(grace: .milliseconds(Int64(grace * 1000)))
    }

    /// The process's peak resident set size (VmHWM), in kB.
    var peakRSSKilobytes: Int? { ProcessUsage.peakResidentBytes(pid).map { Int($0 / 1024) } }
    /// The process's current resident set size, in kB.
    var rssKilobytes: Int? { ProcessUsage.residentBytes(pid).map { Int($0 / 1024) } }
}

/// Every process the benchmark started, so that all of them are stopped on the way out,
/// also after a failure or a Ctrl-C.
final class ChildRegistry: @unchecked Sendable {
    // @unchecked: `children` is only touched under `lock`.
    private let lock = Lock()
    private var children: [BenchChild] = []
    private var signalSources: [any DispatchSourceSignal] = []

    /// Starts `path` with `arguments`, its output appended to `logPath`.
    ///
    /// - Parameter dieWithUs: run it under `setpriv --pdeathsig SIGTERM`, so that it
    ///   stops even if this process is killed before it can clean up. Off where the
    ///   extra exec would distort a timing (cold start).
    func spawn(_ path: String, _ arguments: [String], label: String, logPath: String,
               environment: [String: String]? = nil, dieWithUs: Bool = true) throws -> BenchChild {
        var argv = [path] + arguments
        let setpriv = "/usr/bin/setpriv"
        if dieWithUs && FileManager.default.isExecutableFile(atPath: setpriv) {
            argv = [setpriv, "--pdeathsig", "TERM", "--"] + argv
        }
        // The spawn happens on the calling (main) thread: PR_SET_PDEATHSIG follows the
        // parent *thread*, so a helper thread that exits would take the child with it.
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(ProcessSpec(
                executable: argv[0], arguments: Array(argv.dropFirst()),
                environment: environment ?? ProcessInfo.processInfo.environment,
                standardInput: .null, standardOutput: .file(logPath, append: true), standardError: .sameAsOutput))
        } catch {
            throw BenchFailure("could not start \(path): \(error)")
        }
        let child = BenchChild(process: process, label: label)
        lock.withLock { children.append(child) }
        return child
    }

    /// Stops every child still running, newest first (hosts before what they depend on).
    func stopAll() {
        let all = lock.withLock { children.reversed() }
        for child in all { child.stop() }
    }

    /// Stops the children when this process gets SIGINT or SIGTERM, then exits.
    func stopOnSignals() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in
                FileHandle.standardError.write(Data("intentbus-bench: interrupted; stopping what it started\n".utf8))
                stopAll()
                exit(130)
            }
            source.resume()
            lock.withLock { signalSources.append(source) }
        }
    }
}

/// A benchmark step that could not run.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
