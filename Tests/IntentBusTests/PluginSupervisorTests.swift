import Foundation
import IntentBus
@testable import PluginHost
import Testing

/// The plugin supervisor as a value (Routing/Supervisor/): each event's new state and the
/// actions it asks for, with no core, no process and no clock but the numbers given.
@Suite("Plugin supervisor")
struct PluginSupervisorTests {
    typealias Action = PluginSupervisor.Action
    private let connection = Data("conn-a".utf8)
    private let second: UInt64 = 1_000_000_000

    /// A supervisor whose process `pid` has said HELLO.
    private func ready(pid: pid_t = 7) -> PluginSupervisor {
        var life = PluginSupervisor(id: "a", enabled: true, spawned: true)
        _ = life.willSpawn()
        _ = life.spawned(pid: pid, command: "/bin/a")
        _ = life.helloAccepted(identity: connection)
        return life
    }

    private func context(crashLimit: Int = 5, hasWaiting: Bool = false, draining: Bool = false) -> PluginSupervisor.ExitContext {
        var life = PluginLifecycle()
        life.crashLimit = crashLimit
        life.breakerCooldown = .seconds(30)
        return PluginSupervisor.ExitContext(draining: draining, hasWaiting: hasWaiting, lifecycle: life)
    }

    private func errors(_ actions: [Action]) -> [(kind: String, code: ErrorCode, message: String)] {
        var found: [(kind: String, code: ErrorCode, message: String)] = []
        for action in actions {
            switch action {
            case .failInFlight(let e): found.append(("inFlight", e.code, e.message))
            case .failWaiting(let e): found.append(("waiting", e.code, e.message))
            default: break
            }
        }
        return found
    }

    private func timers(_ actions: [Action]) -> [PluginSupervisor.Timer] {
        var found: [PluginSupervisor.Timer] = []
        for case .arm(let timer, _) in actions { found.append(timer) }
        return found
    }

    @Test("initial states: stopped, disabled in the manifest, or a remote one waited for")
    func initialStates() {
        #expect(PluginSupervisor(id: "a", enabled: true, spawned: true).state == .stopped)
        #expect(PluginSupervisor(id: "a", enabled: false, spawned: true).state == .disabled(.manifest))
        let remote = PluginSupervisor(id: "a", enabled: true, spawned: false)
        #expect(remote.state == .remote(identity: nil) && remote.stateName == "waiting")
    }

    @Test("spawned: starting, with a handshake deadline for this generation; HELLO makes it ready")
    func spawnAndHello() {
        var life = PluginSupervisor(id: "a", enabled: true, spawned: true)
        #expect(life.willSpawn() == 1)
        let actions = life.spawned(pid: 7, command: "/bin/a")
        #expect(life.state == .starting(.init(pid: 7), trial: false) && life.pid == 7 && life.identity == nil)
        #expect(actions.last == .arm(.handshakeDeadline(generation: 1), after: PluginSupervisor.handshakeTimeout))
        #expect(life.helloAccepted(identity: connection).isEmpty, "no breaker to close")
        #expect(life.state == .ready(.init(pid: 7), identity: connection) && life.stateName == "ready")
        #expect(life.handshakeTimedOut(generation: 1).isEmpty, "ready: the deadline is stale")
    }

    @Test("no HELLO in time: SIGKILL, and the exit is a crash with a backoff")
    func handshakeDeadline() {
        var life = PluginSupervisor(id: "a", enabled: true, spawned: true)
        let generation = life.willSpawn()
        _ = life.spawned(pid: 7, command: "/bin/a")
        #expect(life.handshakeTimedOut(generation: generation + 1).isEmpty, "another spawn's timer")
        #expect(life.handshakeTimedOut(generation: generation).last == .signal(7, SIGKILL))
        let actions = life.exited(pid: 7, status: .signalled(SIGKILL), now: 5 * second, context())
        #expect(life.state == .backoff(trial: false) && life.restarts == 1 && life.stateName == "restarting")
        #expect(timers(actions) == [.restart])
        #expect(actions.contains(.arm(.restart, after: 100_000_000)), "the first backoff is 100 ms")
        #expect(life.restartDue(hostStopping: false) == [.spawn] && life.restartDue(hostStopping: true).isEmpty)
    }

    @Test("a crash: the connection is forgotten, idempotent requests retried, the rest fail, then a backoff that grows")
    func crash() {
        var life = ready()
        let actions = life.exited(pid: 7, status: .exited(1), now: 10 * second, context())
        #expect(actions.first == .forget(connection))
        #expect(actions.contains(.retryIdempotent(pid: 7, why: "exited with status 1")))
        #expect(errors(actions).map { $0.code } == [.pluginCrashed])
        #expect(life.lastError == .other("pid 7 exited with status 1"))
        #expect(life.exited(pid: 7, status: .exited(1), now: 11 * second, context()).isEmpty, "a pid no longer named")
        _ = life.willSpawn()
        _ = life.spawned(pid: 8, command: "/bin/a")
        let again = life.exited(pid: 8, status: .exited(1), now: 11 * second, context())
        #expect(again.contains(.arm(.restart, after: 200_000_000)) && life.crashTimes.count == 2)
    }

    @Test("the breaker: crash_limit crashes open it, its cool-down gives one start, and that start's HELLO closes it")
    func breaker() {
        var life = ready()
        _ = life.exited(pid: 7, status: .exited(1), now: 1 * second, context(crashLimit: 2))
        _ = life.willSpawn()
        _ = life.spawned(pid: 8, command: "/bin/a")
        let actions = life.exited(pid: 8, status: .exited(1), now: 2 * second, context(crashLimit: 2, hasWaiting: true))
        guard case .breakerOpen(let reason) = life.state else { Issue.record("\(life.state)"); return }
        #expect(reason.contains("crashed 2 times") && reason.contains("circuit open"))
        #expect(life.isBreakerOpen && life.stateName == "failed" && life.failureReason == reason)
        #expect(errors(actions).map { $0.kind } == ["inFlight", "waiting"])
        #expect(timers(actions) == [.breakerRetry] && actions.last == .arm(.breakerRetry, after: 30 * second))
        #expect(life.restartDue(hostStopping: false).isEmpty, "no backoff restart while open")
        #expect(life.breakerRetryDue(hostStopping: false).last == .spawn)
        _ = life.willSpawn()
        _ = life.spawned(pid: 9, command: "/bin/a")
        #expect(life.state == .starting(.init(pid: 9), trial: true) && life.isBreakerOpen, "half-open")
        #expect(life.helloAccepted(identity: connection) == [.log(.info, "plugin a started again: circuit closed")])
        #expect(!life.isBreakerOpen && life.crashTimes.isEmpty)
    }

    @Test("disable stops a running plugin and it stays disabled; enable lets it start; each says when there is nothing to do")
    func disableEnable() {
        var life = ready()
        let (done, actions) = life.disable()
        #expect(done == "disabled; stopping" && life.isDisabledAtRunTime)
        #expect(actions.dropFirst() == [.forget(connection), .disconnect(connection),
                                         .arm(.stopStopping(pid: 7, signal: SIGTERM), after: 2 * second),
                                         .arm(.stopStopping(pid: 7, signal: SIGKILL), after: 4 * second)])
        #expect(errors(actions).map { $0.kind } == ["waiting"])
        #expect(life.disable().done == "already disabled")
        #expect(life.stopTimerDue(pid: 7, signal: SIGTERM).last == .signal(7, SIGTERM))
        let exit = life.exited(pid: 7, status: .exited(0), now: second, context())
        #expect(life.state == .disabled(.runTime) && life.restarts == 0, "not a crash")
        #expect(!exit.contains(.spawn) && life.stopTimerDue(pid: 7, signal: SIGKILL).isEmpty, "a reaped pid is never signalled")
        #expect(life.activation(hostStopping: false).isEmpty, "a request does not start it")
        #expect(life.restart().done == "disabled; enable it first")
        let enabled = life.enable(eager: true)
        #expect(enabled.done == "enabled" && enabled.actions == [.spawn] && life.state == .stopped)
        #expect(life.enable(eager: true).done == "already enabled")
        var stopped = PluginSupervisor(id: "a", enabled: true, spawned: true)
        let disabled = stopped.disable()
        #expect(disabled.done == "disabled" && disabled.actions == [.failWaiting(BusError(.pluginUnavailable, "plugin a was disabled", details: ["plugin": "a"]))])
        #expect(stopped.state == .disabled(.runTime))
    }

    @Test("restart stops and starts a running plugin once; from an open breaker it starts at once")
    func restart() {
        var life = ready()
        #expect(life.restart().done == "restarting")
        let exit = life.exited(pid: 7, status: .exited(0), now: second, context())
        #expect(exit.last == .spawn && life.restarts == 1 && life.state == .stopped)
        var open = ready()
        _ = open.exited(pid: 7, status: .exited(1), now: second, context(crashLimit: 1))
        #expect(open.isBreakerOpen)
        let started = open.restart()
        #expect(started.done == "starting" && started.actions == [.spawn] && !open.isBreakerOpen && open.crashTimes.isEmpty)
    }

    @Test("a refused HELLO is known by its case, not by its text: the exit after it is told as its consequence")
    func handshakeRefused() {
        var life = PluginSupervisor(id: "a", enabled: true, spawned: true)
        _ = life.willSpawn()
        _ = life.spawned(pid: 7, command: "/bin/a")
        life.helloRefused("protocol 9 is not supported")
        _ = life.exited(pid: 7, status: .exited(1), now: second, context())
        #expect(life.lastError == .handshakeRejected("protocol 9 is not supported; pid 7 then exited with status 1"))
        #expect(life.lastError?.text.hasPrefix("handshake rejected: ") == true)
        _ = life.willSpawn()
        #expect(life.lastError == .other("previous handshake rejected: protocol 9 is not supported; pid 7 then exited with status 1"))
        _ = life.spawned(pid: 8, command: "/bin/a")
        _ = life.exited(pid: 8, status: .exited(2), now: 2 * second, context())
        #expect(life.lastError == .other("pid 8 exited with status 2"), "the next exit is its own story")
        // Text that merely looks like a rejection is not one.
        var other = ready()
        _ = other.hung(silence: "handshake rejected: no", heartbeat: "1s", draining: false)
        #expect(other.lastError == .other("hung: silent for handshake rejected: no"))
    }

    @Test("a HELLO rejected for good: failed, its process asked to leave, its exit changes nothing; a remote one stays waited for")
    func handshakeRejected() {
        var life = PluginSupervisor(id: "a", enabled: true, spawned: true)
        _ = life.willSpawn()
        _ = life.spawned(pid: 7, command: "/bin/a")
        life.helloRefused("no handler for I")
        #expect(life.helloRejected("no handler for I") == [.stopRejected(7)])
        #expect(life.state == .rejected(reason: "no handler for I") && life.failureReason == "handshake rejected: no handler for I")
        #expect(life.exited(pid: 7, status: .exited(1), now: second, context()).isEmpty && life.pid == nil)
        var remote = PluginSupervisor(id: "r", enabled: true, spawned: false)
        #expect(remote.helloRejected("bad key").isEmpty && remote.state == .remote(identity: nil))
    }

    @Test("hung: SIGTERM at once, SIGKILL after 1 s; the exit is a crash, or the end when the host drains")
    func hung() {
        var life = ready()
        let actions = life.hung(silence: "1.5s", heartbeat: "1s", draining: false)
        #expect(errors(actions).map { $0.code } == [.pluginHung])
        #expect(actions.suffix(3) == [.forget(connection), .signal(7, SIGTERM), .arm(.stopStopping(pid: 7, signal: SIGKILL), after: second)])
        var draining = life
        _ = life.exited(pid: 7, status: .signalled(SIGKILL), now: second, context())
        #expect(life.state == .backoff(trial: false) && life.lastError == .other("pid 7 hung and was stopped (was killed by signal 9 (SIGKILL))"))
        _ = draining.exited(pid: 7, status: .signalled(SIGKILL), now: second, context(draining: true))
        #expect(draining.state == .stopped)
        var remote = PluginSupervisor(id: "r", enabled: true, spawned: false)
        _ = remote.helloAccepted(identity: connection)
        #expect(remote.hung(silence: "3s", heartbeat: "2s", draining: false).contains(.forget(connection)))
        #expect(remote.state == .remote(identity: nil))
    }

    @Test("a memory breach stays with its process: the exit reports it, the next process starts clean")
    func limitBreach() {
        var life = ready()
        #expect(life.limitBreached("memory_limit exceeded").last == .signal(7, SIGKILL))
        life.connectionLost()
        #expect(life.running?.breach == "memory_limit exceeded", "through a lost connection")
        _ = life.exited(pid: 7, status: .signalled(SIGKILL), now: second, context())
        #expect(life.lastError == .other("pid 7 was killed by signal 9 (SIGKILL): memory_limit exceeded"))
        _ = life.willSpawn()
        _ = life.spawned(pid: 8, command: "/bin/a")
        #expect(life.running?.breach == nil)
    }

    @Test("retire stops it and keeps it retired through its exit; coming back makes it startable")
    func retireAndReturn() {
        var life = ready()
        let actions = life.retire()
        #expect(life.isRetired && errors(actions).map { $0.kind } == ["waiting", "inFlight"])
        _ = life.exited(pid: 7, status: .exited(0), now: second, context())
        #expect(life.state == .disabled(.removed) && life.isRetired)
        life.unretire(disabledAtRunTime: false)
        #expect(life.state == .stopped && !life.isRetired)
        #expect(life.replaced(enabled: true, again: true).startable)
        var stopped = PluginSupervisor(id: "a", enabled: true, spawned: true)
        _ = stopped.retire()
        stopped.unretire(disabledAtRunTime: true)
        #expect(stopped.state == .disabled(.runTime) && !stopped.replaced(enabled: true, again: true).startable,
                "an instance of a plugin disabled at run time stays disabled")
    }

    @Test("host shutdown: an exit is final, whatever the process was doing")
    func hostStopping() {
        var life = ready()
        var ctx = context()
        ctx.hostStopping = true
        #expect(life.exited(pid: 7, status: .exited(0), now: second, ctx).count == 2)
        #expect(life.state == .stopped && life.restarts == 0 && life.activation(hostStopping: true).isEmpty)
    }

    @Test("a failed spawn fails the waiting requests; a request may try again once a second")
    func spawnFailure() {
        var life = PluginSupervisor(id: "a", enabled: true, spawned: true)
        _ = life.willSpawn()
        let actions = life.spawnFailed("no such file", at: 10 * second, declaredAt: "plugins.yaml:3")
        #expect(errors(actions).map { $0.message } == ["plugin a is unavailable: no such file"])
        #expect(life.failureReason == "no such file" && life.stateName == "failed")
        #expect(!life.mayRetrySpawn(now: 10 * second + 500_000_000) && life.mayRetrySpawn(now: 11 * second + 1))
    }

    @Test("Majordomo workers: the first attaches the entry, the last detaches it; a disabled entry takes none")
    func majordomoWorkers() {
        var entry = PluginSupervisor(id: "m", enabled: true, spawned: false)
        #expect(entry.workerAttached(identity: connection) && entry.identity == connection)
        let twice = entry.workerAttached(identity: connection)
        #expect(!twice, "attached already")
        #expect(entry.workerDetached() == connection && entry.workerDetached() == nil)
        _ = entry.disable()
        let disabled = entry.workerAttached(identity: connection)
        #expect(!disabled)
    }
}
