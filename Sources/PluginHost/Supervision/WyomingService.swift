import Foundation
import IntentBusCore
import IntentBusProcess
import IntentBusManifest

/// `host.wyoming`: the Python Wyoming service (`intentbus.wyoming_service`), started and
/// supervised by the host as a child process of its own (docs/wyoming.md, "Started by
/// the host"). It is a client of the host's frontend like any other, not a plugin: it
/// claims no intents.
///
/// One thread of its own supervises it, so the router's loop is untouched: it polls the
/// child's pidfd, its output pipe (stdout and stderr, whose lines go to the host's log as
/// `service=wyoming pid=N | …`, bounded like a plugin's) and a wake pipe. When the child
/// dies it is started again after a backoff (0.5 s, doubling to 30 s; a run of 30 s
/// resets it). A changed or removed section (a reload) and the host's stop end it with
/// SIGTERM, then SIGKILL after `grace`.
///
/// Threading: `update`, `stop` and `status` may be called from any thread (the router's);
/// the child and its pipe belong to the supervising thread.
final class WyomingService: @unchecked Sendable {
    // @unchecked: `desired`, `stopping`, `thread` and `published` are only touched under
    // `lock`; the rest is immutable or the supervising thread's own.

    /// What `status` shows, published by the supervising thread.
    struct Published {
        var state = "stopped"
        var pid: pid_t?
        var startedAt: UInt64?
        var restarts = 0
        var lastExit: String?
        var settings: WyomingServiceSettings?
    }

    /// How long a stopping service has between SIGTERM and SIGKILL.
    static let grace: Duration = .seconds(5)
    /// The delay before the first restart, doubled for each quick death up to `maximumBackoff`.
    static let firstBackoff: UInt64 = 500_000_000
    static let maximumBackoff: UInt64 = 30_000_000_000
    /// A run this long resets the backoff.
    static let steadyRun: UInt64 = 30_000_000_000
    /// The line the service writes once it serves (wyoming_service.serve).
    static let readyMarker: StaticString = "intentbus-wyoming: serving "

    private let lock = Lock()
    private var desired: WyomingServiceSettings?
    private var stopping = false
    private var thread: Thread?
    private var published = Published()
    private let finished = DispatchSemaphore(value: 0)
    private let wake: (read: Int32, write: Int32)
    let logger: Logger
    private let environment: [String: String]

    init(logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.logger = logger.with("service", "wyoming")
        self.environment = environment
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        wake = (fds[0], fds[1])
    }

    deinit {
        if wake.read >= 0 { close(wake.read) }
        if wake.write >= 0 { close(wake.write) }
    }

    /// Runs the service with `settings` from now on: nil stops it, a change restarts it.
    /// The supervising thread starts with the first settings.
    func update(_ settings: WyomingServiceSettings?) {
        let startThread: Bool = lock.withLock {
            guard !stopping else { return false }
            desired = settings
            guard thread == nil, settings != nil else { return false }
            let thread = Thread { [self] in
                supervise()
                finished.signal()
            }
            thread.name = "wyoming-service"
            self.thread = thread
            return true
        }
        if startThread { lock.withLock { thread }?.start() } else { poke() }
    }

    /// Stops the service (SIGTERM, SIGKILL after `grace`) and its thread; returns once
    /// the child is reaped. Safe to call twice.
    func stop() {
        let running: Bool = lock.withLock {
            let first = !stopping
            stopping = true
            return first && thread != nil
        }
        guard running else { return }
        poke()
        finished.wait()
    }

    /// `ib.status`'s `wyoming` entry; nil when the manifest has none and none runs.
    var status: JSON? {
        let p = lock.withLock { published }
        guard let settings = p.settings else { return nil }
        var o: [String: JSON] = [
            "state": .string(p.state), "uri": .string(settings.uri), "endpoint": .string(settings.endpoint),
            "restarts": .int(Int64(p.restarts)),
            "command": .array(([settings.command.path] + settings.command.arguments).map { .string($0) }),
        ]
        if let pid = p.pid { o["pid"] = .int(Int64(pid)) }
        if let started = p.startedAt {
            o["uptime_s"] = .double(Double((MonotonicClock.now() &- started) / 1_000_000) / 1_000)
        }
        if let lastExit = p.lastExit { o["last_exit"] = .string(lastExit) }
        return .object(o)
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private func publish(_ change: (inout Published) -> Void) { lock.withLock { change(&published) } }

    // MARK: - The supervising thread

    /// The child now running, as the supervising thread holds it.
    struct Running {
        let process: ChildProcess
        var output: Int32
        var lines = OutputLines()
        let relay: PluginOutputRelay
        let settings: WyomingServiceSettings
        let startedAt: UInt64
        /// The last bytes read, to find `readyMarker` across reads.
        var tail: [UInt8] = []
        var ready = false
    }

    private func supervise() {
        var child: Running?
        var quickDeaths = 0
        var nextStart: UInt64 = 0
        var current: WyomingServiceSettings?
        while true {
            let (want, stop) = lock.withLock { (desired, stopping) }
            if stop {
                if let running = child { terminate(running, why: "the host is stopping") }
                publish { $0.state = "stopped"; $0.pid = nil; $0.startedAt = nil }
                return
            }
            if want != current {
                if let running = child {
                    terminate(running, why: want == nil ? "host.wyoming was removed" : "host.wyoming changed")
                    child = nil
                }
                current = want
                (quickDeaths, nextStart) = (0, 0)
                publish { $0 = Published(settings: want) }
            }
            let now = MonotonicClock.now()
            if child == nil, let want, now >= nextStart {
                child = launch(want)
                if child == nil {
                    quickDeaths += 1
                    nextStart = MonotonicClock.now() &+ Self.backoff(quickDeaths)
                }
            }
            wait(for: &child, until: child == nil && current != nil ? nextStart : nil)
            if let running = child, let status = running.process.reapIfExited() {
                var ended = running
                finishOutput(&ended)
                child = nil
                let ran = MonotonicClock.now() &- running.startedAt
                quickDeaths = ran >= Self.steadyRun ? 1 : quickDeaths + 1
                let delay = Self.backoff(quickDeaths)
                nextStart = MonotonicClock.now() &+ delay
                logger.warning("wyoming service (pid \(running.process.pid)) \(status) after \(Double(ran / 1_000_000) / 1_000) s; starting it again in \(Double(delay / 1_000_000) / 1_000) s")
                publish {
                    $0.state = "restarting"; $0.pid = nil; $0.startedAt = nil; $0.lastExit = status.description
                }
            }
        }
    }

    /// 0.5 s, 1 s, 2 s, … up to 30 s for the n-th quick death in a row.
    static func backoff(_ deaths: Int) -> UInt64 {
        let shift = UInt64(min(max(deaths - 1, 0), 16))
        return min(maximumBackoff, firstBackoff << shift)
    }

    private func launch(_ settings: WyomingServiceSettings) -> Running? {
        var environment = PluginEnvironment.base(from: self.environment, inheriting: [])
        environment.merge(settings.serviceEnvironment) { _, new in new }
        let spec = ProcessSpec(
            executable: settings.command.path,
            arguments: settings.command.arguments + settings.serviceArguments + ["--host-pid", String(getpid())],
            environment: environment, standardInput: .null, standardOutput: .pipe, standardError: .sameAsOutput,
            ownProcessGroup: true)
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(spec)
        } catch {
            logger.error("cannot start the wyoming service (\(settings.command.path), \(settings.commandOrigin)): \(error)")
            publish { $0.state = "restarting"; $0.lastExit = "could not start: \(error)" }
            return nil
        }
        let output = process.standardOutput ?? -1
        if output >= 0 { _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK) }
        logger.info("started the wyoming service (pid \(process.pid)) on \(settings.uri) for \(settings.endpoint): \(([settings.command.path] + settings.command.arguments).joined(separator: " ")) (\(settings.commandOrigin))")
        let relay = PluginOutputRelay(logger: logger.with("pid", String(process.pid)), logBook: nil,
                                      plugin: "wyoming", pid: process.pid)
        let started = MonotonicClock.now()
        publish {
            if $0.pid != nil || $0.lastExit != nil { $0.restarts += 1 }
            $0.state = "starting"; $0.pid = process.pid; $0.startedAt = started
        }
        return Running(process: process, output: output, relay: relay, settings: settings, startedAt: started)
    }

    /// Polls the wake pipe, the child's pidfd and output until one is ready, or until
    /// `deadline` (monotonic ns). Without a pidfd the exit is checked every 200 ms.
    private func wait(for child: inout Running?, until deadline: UInt64?) {
        var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        if let running = child {
            if let pidfd = running.process.pidfd { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
            if running.output >= 0 { fds.append(pollfd(fd: running.output, events: Int16(POLLIN), revents: 0)) }
        }
        var timeout: Int32 = -1
        if let deadline {
            let now = MonotonicClock.now()
            timeout = deadline > now ? Int32(min((deadline - now) / 1_000_000 + 1, 60_000)) : 0
        }
        if let running = child, running.process.pidfd == nil { timeout = timeout < 0 ? 200 : min(timeout, 200) }
        var rc: Int32
        repeat { rc = poll(&fds, nfds_t(fds.count), timeout) } while rc < 0 && errno == EINTR
        var sink = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &sink, sink.count) > 0 {}
        if var running = child, running.output >= 0 {
            readOutput(&running, budget: ChildSupervisor.readBudget)
            child = running
        }
    }

    private func readOutput(_ child: inout Running, budget: Int) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1_024)
        var left = budget
        while left > 0, child.output >= 0 {
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return }  // EAGAIN: all read for now
            if n == 0 {
                child.lines.finish(to: child.relay)
                close(child.output)
                child.output = -1
                return
            }
            left -= n
            child.lines.append(buffer[0..<n], to: child.relay)
            if !child.ready { noteReady(&child, buffer[0..<n]) }
        }
    }

    /// Marks the service running once it has written `readyMarker`.
    private func noteReady(_ child: inout Running, _ bytes: ArraySlice<UInt8>) {
        let seen = child.tail + bytes
        if seen.withUnsafeBytes({ $0.contains(Self.readyMarker) }) {
            child.ready = true
            publish { $0.state = "running" }
        }
        child.tail = Array(seen.suffix(Self.readyMarker.utf8CodeUnitCount))
    }

    /// What the child wrote last, then its pipe closed (a grandchild may hold it open).
    private func finishOutput(_ child: inout Running) {
        readOutput(&child, budget: 4 * ChildSupervisor.readBudget)
        if child.output >= 0 {
            child.lines.finish(to: child.relay)
            close(child.output)
            child.output = -1
        }
    }

    /// SIGTERM, its output read meanwhile, SIGKILL after `grace`; reaps it.
    private func terminate(_ running: Running, why: String) {
        var child = running
        logger.info("stopping the wyoming service (pid \(child.process.pid)): \(why)")
        child.process.signal(SIGTERM)
        let deadline = MonotonicClock.now() &+ UInt64(Self.grace.components.seconds) * 1_000_000_000
        var status = child.process.reapIfExited()
        while status == nil, MonotonicClock.now() < deadline {
            var some: Running? = child
            wait(for: &some, until: deadline)
            child = some ?? child
            status = child.process.reapIfExited()
        }
        let ended: ExitStatus
        if let status {
            ended = status
        } else {
            logger.warning("the wyoming service (pid \(child.process.pid)) did not stop within \(Self.grace.components.seconds) s of SIGTERM; SIGKILL")
            child.process.signal(SIGKILL)
            ended = child.process.wait()
        }
        finishOutput(&child)
        logger.info("the wyoming service (pid \(child.process.pid)) \(ended)")
    }
}
