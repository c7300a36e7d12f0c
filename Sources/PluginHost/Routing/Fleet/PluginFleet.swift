import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusManifest

/// What the plugin fleet needs of the request side of the core, and nothing more: the
/// timers (one heap for the whole core, in the exchange book), whether the host is
/// stopping or draining, the extensions' word on a HELLO, and what becomes of the
/// requests a plugin holds or that wait for it. `RouterCore` implements it
/// (RouterCore+Fleet.swift); the fleet holds it unowned, as the core holds its effects.
protocol FleetHost: AnyObject {
    /// Shutdown has begun: every request has been answered, plugins are being stopped.
    var stopping: Bool { get }
    /// SIGTERM arrived: no new requests; open ones may finish.
    var draining: Bool { get }
    /// Arms a plugin timer `nanoseconds` from now (saturating); it comes back to
    /// `PluginFleet.timerDue`.
    func arm(_ timer: RouterTimer, after nanoseconds: UInt64)
    /// An extension's reason to refuse this HELLO (the first one's), or nil.
    func helloProblem(_ slot: PluginSlot, _ hello: JSON) -> String?
    /// `slot` is ready: the requests that waited for it (`slot.waiting`) go out now.
    func beginWaiting(_ slot: PluginSlot)
    /// Every request delivered to `slot` ends with `error`.
    func failInFlight(_ slot: PluginSlot, _ error: BusError)
    /// Every request waiting for `slot` ends with `error`.
    func failWaiting(_ slot: PluginSlot, _ error: BusError)
    /// `dead` crashed or hung: its idempotent requests go once more, elsewhere or later.
    func retryIdempotent(_ dead: PluginSlot, pid: pid_t, why: String)
}

/// The plugins and everything about them that is not a request (docs/design.md, "The
/// core's parts"): the slots, the routing table, the connections that said HELLO, the
/// rejected processes, and their lifecycle — spawn, handshake, heartbeats, crash and
/// restart, on-demand start and idle stop, instances, hot reload, `ib.plugins.*`.
///
/// Each slot's state is its `PluginSupervisor` (events in, actions out); the fleet finds
/// the events and carries out the actions that concern plugins (spawn, signal, DISCONNECT,
/// the routing table, timers) and hands the ones that concern requests to its `host`.
/// `RouterCore` owns it (`RouterCore.fleet`) and reads its tables; only the fleet writes
/// them. Owned by the router thread; nothing here is `Sendable`.
final class PluginFleet {
    let logger: Logger
    /// The shell (or a test's recorder): spawn, signal, send to a plugin, the clock.
    /// Unowned without the check, as in `RouterCore`: the shell outlives both.
    unowned(unsafe) let effects: any RouterEffects
    /// The core's request side. Set once, right after the core is built.
    unowned(unsafe) var host: (any FleetHost)!

    /// One slot per process, for the life of the host: exchanges and timers hold indices.
    private(set) var slots: [PluginSlot] = []
    /// Intent name → indices of the plugins claiming it, sorted by plugin id so that
    /// routing never depends on which plugin registered first.
    private(set) var routes: [String: [Int]] = [:] { didSet { routingEpoch &+= 1 } }
    /// Intent name → indices of the disabled plugins (`enabled: false`) claiming it. They
    /// are not in `routes`, but are named in errors and in `ib.explain`.
    private(set) var disabledClaims: [String: [Int]] = [:]
    /// Plugin connections (backend identities) → slot index, after HELLO.
    private(set) var identities: [Data: Int] = [:] { didSet { routingEpoch &+= 1 } }
    /// Bumped whenever routes or plugin connections change: the relay lane's tables are
    /// built for one epoch (Routing/Relay/RelayLane.swift).
    private(set) var routingEpoch: UInt64 = 0
    /// Processes whose handshake was rejected and that have not exited yet.
    private(set) var rejectedPids: Set<pid_t> = []

    init(plugins: [PluginSpec], logger: Logger, effects: any RouterEffects) {
        self.logger = logger
        self.effects = effects
        slots = plugins.enumerated().map { PluginSlot(index: $0.offset, spec: $0.element) }
        for slot in Array(slots) { addInstanceSlots(slot) }
        rebuildRoutes()
    }

    /// Whether every plugin has exited.
    var allExited: Bool { slots.allSatisfy { $0.pid == nil } }

    /// Starts the enabled, eager plugins the host spawns (at the core's start).
    func startEager() {
        for slot in slots where slot.spec.enabled && slot.spec.isSpawned && slot.spec.lifecycle.activation == .eager {
            startPlugin(slot)
        }
    }

    /// Shutdown, after every request was answered: DISCONNECT lets a plugin finish and exit
    /// on its own; one not connected gets SIGTERM, as does every rejected process.
    func stopAll() {
        for slot in slots {
            if let identity = slot.identity {
                _ = effects.sendToPlugin(identity, WireMessage(kind: .disconnect, header: nil, body: nil).frames)
            } else if let pid = slot.pid {
                effects.signal(pid, SIGTERM)  // not connected: it can't hear DISCONNECT
            }
        }
        for pid in rejectedPids { effects.signal(pid, SIGTERM) }
    }

    // MARK: - Connections outside HELLO

    /// A connection routed to `index`: after a HELLO, or a Majordomo entry's stand-in
    /// (Majordomo/RouterCore+Majordomo.swift). The tables' writers are here, in the file
    /// that declares them.
    func bind(_ identity: Data, to index: Int) { identities[identity] = index }

    /// Whether the connection `identity` agreed to the packed form at HELLO (§5.1).
    func packs(_ identity: Data) -> Bool { identities[identity].map { slots[$0].packedLink } ?? false }

    /// Drops a connection from the routing table.
    func unbind(_ identity: Data) { identities.removeValue(forKey: identity) }

    /// A process was reaped: its pid may be reused, so it is never signalled again.
    func forgetRejected(_ pid: pid_t) { rejectedPids.remove(pid) }

    // MARK: - Timers

    /// A plugin timer is due (the request timers are the core's).
    func timerDue(_ timer: RouterTimer) {
        switch timer {
        case .restart(let index):
            perform(slots[index].life.restartDue(hostStopping: host.stopping), slots[index])
        case .handshakeDeadline(let index, let generation):
            perform(slots[index].life.handshakeTimedOut(generation: generation), slots[index])
        case .stopPlugins(let signal):
            for slot in slots {
                guard let pid = slot.pid else { continue }
                logger.warning("plugin \(slot.spec.id) (pid \(pid)) is still running; sending \(signal == SIGKILL ? "SIGKILL" : "SIGTERM")")
                effects.signal(pid, signal)
            }
        case .heartbeat(let index, let generation):
            heartbeatDue(slots[index], generation: generation)
        case .stopStopping(let index, let pid, let signal):
            // A stop's timer: signal the process if it has not exited yet.
            perform(slots[index].life.stopTimerDue(pid: pid, signal: signal), slots[index])
        case .idle(let index, let generation):
            idleDue(slots[index], generation: generation)
        case .breakerRetry(let index):
            perform(slots[index].life.breakerRetryDue(hostStopping: host.stopping), slots[index])
        case .stopRejected(let pid):
            guard rejectedPids.remove(pid) != nil else { return }
            logger.warning("plugin process \(pid) is still running 2 s after its handshake was rejected; sending SIGTERM")
            effects.signal(pid, SIGTERM)
        case .requestDeadline, .conversationExpiry, .drainOver:
            break  // the core's
        }
    }

    // MARK: - Carrying out the supervisor's actions

    /// Carries out what a slot's supervisor decided (Supervisor/PluginSupervisor.swift), in
    /// order: the plugin side here, the request side through `host`.
    func perform(_ actions: [PluginSupervisor.Action], _ slot: PluginSlot) {
        for action in actions {
            switch action {
            case .spawn:
                startPlugin(slot)
            case .signal(let pid, let signal):
                effects.signal(pid, signal)
            case .disconnect(let identity):
                _ = effects.sendToPlugin(identity, WireMessage(kind: .disconnect, header: nil, body: nil).frames)
            case .forget(let identity):
                identities.removeValue(forKey: identity)
            case .arm(let timer, let after):
                host.arm(routerTimer(timer, slot.index), after: after)
            case .failInFlight(let error):
                host.failInFlight(slot, error)
            case .failWaiting(let error):
                host.failWaiting(slot, error)
            case .retryIdempotent(let pid, let why):
                host.retryIdempotent(slot, pid: pid, why: why)
            case .stopRejected(let pid):
                stopRejected(pid)
            case .log(let level, let line):
                logger.log(level, line)
            }
        }
    }

    private func routerTimer(_ timer: PluginSupervisor.Timer, _ index: Int) -> RouterTimer {
        switch timer {
        case .handshakeDeadline(let generation): .handshakeDeadline(index: index, generation: generation)
        case .restart: .restart(index: index)
        case .breakerRetry: .breakerRetry(index: index)
        case .stopStopping(let pid, let signal): .stopStopping(index: index, pid: pid, signal: signal)
        }
    }

    /// Stops a running plugin on purpose (`PluginSupervisor.stop`).
    func stop(_ slot: PluginSlot, why: PluginSupervisor.StopReason, graceful: Bool) {
        perform(slot.life.stop(why: why, graceful: graceful), slot)
    }

    /// A rejected plugin is told why (REJECT) and should exit by itself; SIGTERM at once
    /// would race its last log line. It gets SIGTERM only if it is still running 2 s later.
    private func stopRejected(_ pid: pid_t) {
        rejectedPids.insert(pid)
        host.arm(.stopRejected(pid: pid), after: 2_000_000_000)
    }

    // MARK: - Routes

    /// Intent → claiming plugins, from the slots in force (not retired), sorted by id so
    /// that routing never depends on declaration order.
    func rebuildRoutes() {
        routes.removeAll(keepingCapacity: true)
        disabledClaims.removeAll(keepingCapacity: true)
        for slot in slots where !slot.retired && slot.primaryIndex == nil {
            for intent in slot.spec.intentsSupported {
                if slot.spec.enabled {
                    routes[intent, default: []].append(slot.index)
                } else {
                    disabledClaims[intent, default: []].append(slot.index)
                }
            }
        }
        for key in routes.keys { routes[key]!.sort { slots[$0].spec.id < slots[$1].spec.id } }
        for key in disabledClaims.keys { disabledClaims[key]!.sort { slots[$0].spec.id < slots[$1].spec.id } }
    }

    /// Adds a slot at the end (a new entry, or an instance's); its index is its place.
    func append(_ slot: PluginSlot) {
        assert(slot.index == slots.count, "a slot's index is its place in the fleet")
        slots.append(slot)
    }
}
