import Foundation
import IntentBusCore

/// One plugin slot's life as a value (docs/design.md, "The plugin supervisor"): one state,
/// events in, actions out, in the style of async-http-client's connection-pool state
/// machines. It does nothing itself: the fleet (`PluginFleet`) calls an event method when
/// something happened (a spawn, a HELLO, an exit, a timer, an `ib.plugins.*` request, a
/// reload) and carries out the actions it returns, in order (`PluginFleet.perform`).
///
/// It is touched on lifecycle events only, never per request: the request path reads its
/// state (`identity`, `isDisabledAtRunTime`) and nothing else.
struct PluginSupervisor: Equatable {
    /// Where the plugin is. What used to be flags beside the state (retired, breaker open,
    /// disabled at run time, a memory breach, a failed spawn's time) is a case or a
    /// payload here, so that no combination can disagree with another.
    enum State: Equatable {
        /// Not running: the host is stopping, or has not started it yet.
        case stopped
        /// Spawned; waiting for its HELLO. `trial`: the breaker's one start (half-open).
        case starting(Running, trial: Bool)
        /// Handshake done; requests flow.
        case ready(Running, identity: Data)
        /// Crashed; starts again when the `.restart` timer fires.
        case backoff(trial: Bool)
        /// The executable could not be started; tried again by a request, at most once a
        /// second after `at` (monotonic ns), so that building it later is enough.
        case spawnFailed(reason: String, at: UInt64, trial: Bool)
        /// Crashed `crash_limit` times within `crash_window`: the breaker is open until
        /// its cool-down timer; requests fail fast with `reason`.
        case breakerOpen(reason: String)
        /// Its HELLO was refused for good (a missing handler, bad metadata): not restarted.
        case rejected(reason: String)
        /// Not run: `enabled: false`, `ib.plugins.disable`, or gone from the manifest.
        case disabled(Off)
        /// Being stopped on purpose (hung, idle, a restart, a disable); its exit is expected.
        case stopping(Running, why: StopReason)
        /// A remote plugin or an `mdp_worker` entry: never spawned; connected when
        /// `identity` is set. Supervised by heartbeats, not by a pid.
        case remote(identity: Data?)
    }

    /// The current process and what the host found wrong with it.
    struct Running: Equatable {
        let pid: pid_t
        /// Why the host killed it for a limit (`memory_limit`), for its exit's report.
        var breach: String?

        init(pid: pid_t, breach: String? = nil) {
            self.pid = pid
            self.breach = breach
        }
    }

    /// Why a plugin is not run.
    enum Off: Equatable {
        /// `enabled: false` in the manifest.
        case manifest
        /// `ib.plugins.disable`, whatever the manifest says.
        case runTime
        /// Removed from the manifest by a hot reload: retired. The slot stays, so that
        /// indices held by exchanges and timers keep their meaning.
        case removed
    }

    /// Why the host stops a running plugin.
    enum StopReason: Equatable {
        /// It stopped answering heartbeats: counts as a crash, restarts with backoff.
        case hung
        /// An on-demand plugin with nothing to do: stopped until the next request.
        case idle
        /// `ib.plugins.restart` (or a reload): started again at once.
        case restart
        /// `ib.plugins.disable`: stays stopped, disabled at run time.
        case disable
        /// `enabled: false` by a hot reload: stays stopped, disabled in the manifest.
        case manifestDisable
        /// Gone from the manifest (a hot reload): stays stopped, retired.
        case removed

        /// The word in log lines and errors.
        var word: String {
            switch self {
            case .hung: "hung"
            case .idle: "idle"
            case .restart: "restart"
            case .disable, .manifestDisable: "disable"
            case .removed: "removed"
            }
        }
    }

    /// The last thing that went wrong, as `ib.plugins` shows it (`last_error`). A refused
    /// HELLO is its own case: the exit that follows it is told as its consequence.
    enum Problem: Equatable {
        case handshakeRejected(String)
        case other(String)

        var text: String {
            switch self {
            case .handshakeRejected(let why): "handshake rejected: \(why)"
            case .other(let text): text
            }
        }
    }

    /// The supervisor's timers; the core schedules them with the slot's index.
    enum Timer: Equatable {
        /// No HELLO from the spawn of `generation` yet: kill it.
        case handshakeDeadline(generation: UInt64)
        /// The backoff is over: start again.
        case restart
        /// The breaker's cool-down is over: one start (half-open).
        case breakerRetry
        /// A stop on purpose: signal the process if it has not exited yet.
        case stopStopping(pid: pid_t, signal: Int32)
    }

    /// What the core is asked to do, in order.
    enum Action: Equatable {
        /// Start a process (a new token; then `spawned` or `spawnFailed`).
        case spawn
        case signal(pid_t, Int32)
        /// Send the plugin DISCONNECT.
        case disconnect(Data)
        /// Drop the connection from the routing table (`PluginFleet.identities`).
        case forget(Data)
        case arm(Timer, after: UInt64)
        /// The requests delivered to this process end with the error; idempotent ones
        /// were first given their one retry by `retryIdempotent`.
        case failInFlight(BusError)
        /// The requests waiting for the plugin end with the error.
        case failWaiting(BusError)
        /// Give each idempotent request the process held its one retry elsewhere.
        case retryIdempotent(pid: pid_t, why: String)
        /// A process whose HELLO was refused: SIGTERM if it has not exited within 2 s.
        case stopRejected(pid_t)
        case log(Logger.Level, String)
    }

    static let handshakeTimeout: UInt64 = 10_000_000_000

    // Written only by the event methods (this folder: the three files of this type are
    // one type, split for length); everything else reads them.

    /// The plugin's id, for log lines and errors.
    let id: String
    var state: State
    /// Monotonic times of recent crashes, for backoff and the crash-loop limit.
    var crashTimes: [UInt64] = []
    /// How many times it was started again (after a crash or a restart on purpose).
    var restarts = 0
    var lastError: Problem?
    /// Bumped at each spawn, so that stale handshake and heartbeat timers do nothing.
    private(set) var generation: UInt64 = 0

    init(id: String, enabled: Bool, spawned: Bool) {
        self.id = id
        state = !enabled ? .disabled(.manifest) : spawned ? .stopped : .remote(identity: nil)
    }

    // MARK: - Reading the state

    var pid: pid_t? { running?.pid }

    var running: Running? {
        switch state {
        case .starting(let r, _), .ready(let r, _), .stopping(let r, _): r
        default: nil
        }
    }

    var identity: Data? {
        switch state {
        case .ready(_, let id): id
        case .remote(let id): id
        default: nil
        }
    }

    /// `ib.plugins.disable` holds (also while its process is being stopped).
    var isDisabledAtRunTime: Bool {
        switch state {
        case .disabled(.runTime), .stopping(_, .disable): true
        default: false
        }
    }

    /// Gone from the manifest: never routed to or listed.
    var isRetired: Bool {
        switch state {
        case .disabled(.removed), .stopping(_, .removed): true
        default: false
        }
    }

    /// The breaker is open, or half-open (its one start has not said HELLO yet).
    var isBreakerOpen: Bool {
        if case .breakerOpen = state { return true }
        return inTrial
    }

    /// Why a failed plugin can't run (`ib.plugins` `reason`), or nil when it is not failed.
    var failureReason: String? {
        switch state {
        case .spawnFailed(let reason, _, _), .breakerOpen(let reason): reason
        case .rejected(let reason): "handshake rejected: \(reason)"
        default: nil
        }
    }

    var stateName: String {
        switch state {
        case .stopped: "stopped"
        case .starting: "starting"
        case .ready: "ready"
        case .backoff: "restarting"
        case .spawnFailed, .breakerOpen, .rejected: "failed"
        case .disabled: "disabled"
        case .stopping: "stopping"
        case .remote(let id): id == nil ? "waiting" : "ready"
        }
    }

    /// In the breaker's half-open start (or its backoff): the next HELLO closes it.
    var inTrial: Bool {
        switch state {
        case .starting(_, let trial), .backoff(let trial), .spawnFailed(_, _, let trial): trial
        case .breakerOpen: true  // the start that ends the cool-down is the trial
        default: false
        }
    }

    // MARK: - Spawning

    /// A start is about to be tried: a new generation, and a refused HELLO of the process
    /// before is history now. Returns the generation.
    mutating func willSpawn() -> UInt64 {
        generation += 1
        if case .handshakeRejected(let why) = lastError { lastError = .other("previous handshake rejected: \(why)") }
        return generation
    }

    /// The process started: it has `handshakeTimeout` to say HELLO.
    mutating func spawned(pid: pid_t, command: String) -> [Action] {
        state = .starting(Running(pid: pid), trial: inTrial)
        return [.log(.info, "started plugin \(id) (pid \(pid)): \(command)"),
                .arm(.handshakeDeadline(generation: generation), after: Self.handshakeTimeout)]
    }

    /// The process could not be started (`mark`: where the manifest declares it).
    mutating func spawnFailed(_ reason: String, at now: UInt64, declaredAt mark: String) -> [Action] {
        state = .spawnFailed(reason: reason, at: now, trial: inTrial)
        lastError = .other(reason)
        return [.log(.error, "plugin \(id) can't start: \(reason) (declared at \(mark))"),
                .failWaiting(BusError(.pluginUnavailable, "plugin \(id) is unavailable: \(reason)", details: ["plugin": .string(id)]))]
    }

    /// Whether a request may try a failed spawn again now (at most once a second).
    func mayRetrySpawn(now: UInt64) -> Bool {
        guard case .spawnFailed(_, let at, _) = state else { return false }
        return now &- at > 1_000_000_000
    }

    /// A request needs a stopped on-demand plugin.
    func activation(hostStopping: Bool) -> [Action] {
        guard case .stopped = state, !hostStopping else { return [] }
        return [.log(.info, "plugin \(id) is started on demand"), .spawn]
    }

    // MARK: - The handshake

    /// A HELLO naming this plugin was refused (wrong token, version, metadata …).
    mutating func helloRefused(_ reason: String) {
        lastError = .handshakeRejected(reason)
    }

    /// The HELLO was refused for good: a spawned plugin is failed, its process asked to
    /// leave; a remote one may connect again (fixed) and stays waited for.
    mutating func helloRejected(_ reason: String) -> [Action] {
        if case .remote = state { return [] }
        let pid = self.pid
        state = .rejected(reason: reason)
        return pid.map { [.stopRejected($0)] } ?? []
    }

    /// The HELLO was accepted on connection `identity`: ready. A half-open breaker
    /// closes, and the crash count starts over.
    mutating func helloAccepted(identity: Data) -> [Action] {
        let closing = inTrial
        switch state {
        case .remote: state = .remote(identity: identity)
        case .starting(let running, _): state = .ready(running, identity: identity)
        default: return []  // the handshake accepts only a starting or remote plugin
        }
        guard closing else { return [] }
        crashTimes.removeAll()
        return [.log(.info, "plugin \(id) started again: circuit closed")]
    }

    /// The connection ended (DISCONNECT, or another took its routing id): a spawned
    /// plugin waits for a new HELLO from the same process; a remote one for a connection.
    mutating func connectionLost() {
        switch state {
        case .ready(let running, _): state = .starting(running, trial: false)
        case .remote: state = .remote(identity: nil)
        default: break
        }
    }

    // MARK: - Timers

    /// The spawn of `generation` said no HELLO in time: it is killed (its exit is a crash).
    mutating func handshakeTimedOut(generation: UInt64) -> [Action] {
        guard generation == self.generation, case .starting(let running, _) = state else { return [] }
        lastError = .other("no HELLO within 10 s of starting")
        return [.log(.error, "plugin \(id) (pid \(running.pid)) did not say HELLO within 10 s; killing it"),
                .signal(running.pid, SIGKILL)]
    }

    /// The backoff after a crash is over.
    func restartDue(hostStopping: Bool) -> [Action] {
        guard case .backoff = state, !hostStopping else { return [] }
        return [.spawn]
    }

    /// The breaker's cool-down is over: one start (half-open).
    func breakerRetryDue(hostStopping: Bool) -> [Action] {
        guard case .breakerOpen = state, !hostStopping else { return [] }
        return [.log(.info, "plugin \(id): the breaker's cool-down is over; trying one start (half-open)"), .spawn]
    }

    /// A stop's timer: signal the process if it has not exited yet (a reaped pid is
    /// never signalled: the state no longer names it).
    func stopTimerDue(pid: pid_t, signal: Int32) -> [Action] {
        guard case .stopping(let running, _) = state, running.pid == pid else { return [] }
        return [.log(.warning, "plugin \(id) (pid \(pid)) is still running; sending \(signal == SIGKILL ? "SIGKILL" : "SIGTERM")"),
                .signal(pid, signal)]
    }
}
