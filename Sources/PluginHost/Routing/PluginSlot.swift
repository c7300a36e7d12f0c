import Foundation
import IntentBusCore
import IntentBusManifest

/// The router's view of one declared plugin. Owned by the router thread.
final class PluginSlot: PluginView {
    enum State {
        /// Not running: the host is stopping, or has not started it yet.
        case stopped
        /// Spawned; waiting for its HELLO.
        case starting(pid: pid_t)
        /// Handshake done; requests flow.
        case ready(pid: pid_t, identity: Data)
        /// Crashed; will start again at the scheduled time.
        case backoff
        /// Can't run: missing binary, rejected handshake, crash loop.
        case failed(reason: String)
        /// `enabled: false` in the manifest: never started, never routed to.
        case disabled
        /// Being stopped on purpose (hung, idle, a restart asked for); its exit is expected.
        case stopping(pid: pid_t, why: StopReason)
        /// A remote plugin (`remote: true`): never spawned; connected when `identity` is
        /// set, waited for otherwise. Supervised by heartbeats, not by a pid.
        case remote(identity: Data?)
    }

    /// Why the host stops a running plugin.
    enum StopReason: String {
        /// It stopped answering heartbeats: counts as a crash, restarts with backoff.
        case hung
        /// An on-demand plugin with nothing to do: stopped until the next request.
        case idle
        /// `ib.plugins.restart`: started again at once.
        case restart
        /// `ib.plugins.disable`: stays stopped.
        case disable
        /// Gone from the manifest (a hot reload): stays stopped, retired.
        case removed
    }

    let index: Int
    /// Its manifest entry; a hot reload may replace it (RouterCore+Reload.swift).
    var spec: PluginSpec
    /// Removed from the manifest by a hot reload: never routed to or listed. The slot
    /// stays, so that indices held by exchanges and timers keep their meaning; the same
    /// id added again later takes it back.
    var retired = false
    /// For the second and later processes of a plugin with `instances: N`: the slot of
    /// its first process, which is the one routed to (RouterCore+Instances.swift).
    var primaryIndex: Int?
    /// On the first process's slot: the slots of the others.
    var instanceSlots: [Int] = []
    /// Why the host killed the current process for a limit (`memory_limit`), for the
    /// crash report of its exit (RouterCore+Guards.swift).
    var limitBreach: String?
    var state: State = .stopped
    /// The one-time token of the current process.
    var token = ""
    /// How many requests were delivered and are not yet answered (the exchanges with this
    /// `pluginIndex` and `delivered` set). A count, not a set of ids: a set cost two hash
    /// operations per request on the hot path (docs/performance.md).
    var inFlight = 0
    /// Requests waiting for the plugin to become ready, in arrival order.
    var waiting: [UInt64] = []
    /// Monotonic times of recent crashes, for backoff and the crash-loop limit.
    var crashTimes: [UInt64] = []
    var restarts = 0
    var lastError: String?
    /// Styles from HELLO, per intent.
    var styles: [String: HandlerStyle] = [:]
    /// New-style metadata from HELLO.
    var metadata: JSON = .object([:])
    /// Bumped at each spawn, to ignore stale handshake timers.
    var spawnGeneration: UInt64 = 0
    /// When the last spawn failed, to retry a missing binary at most once a second.
    var lastSpawnFailure: UInt64?
    /// When the plugin last sent anything (monotonic ns): its liveness.
    var lastHeard: UInt64 = 0
    /// CURVE backend: the User-Id of the connection its HELLO came on; every later message
    /// from its routing id must carry the same (RouterCore+ConnectionBinding.swift).
    var connectionUser: String?
    /// Bumped when the plugin starts work, so that a stale idle timer does nothing.
    var idleGeneration: UInt64 = 0
    /// The breaker is open: started again only after the cool-down (then half-open).
    var breakerOpen = false
    /// Disabled at run time (`ib.plugins.disable`), whatever the manifest says.
    var disabledAtRunTime = false
    /// The last REPLY header from this plugin that passed the host's checks
    /// (IntentRouter+PluginOutput.swift).
    var goodReplyHeader: Data?

    init(index: Int, spec: PluginSpec) {
        self.index = index
        self.spec = spec
        if !spec.enabled { state = .disabled } else if !spec.isSpawned { state = .remote(identity: nil) }
    }

    var pid: pid_t? {
        switch state {
        case .starting(let pid), .ready(let pid, _), .stopping(let pid, _): pid
        default: nil
        }
    }

    var isReady: Bool { identity != nil }

    var identity: Data? {
        switch state {
        case .ready(_, let id): id
        case .remote(let id): id
        default: nil
        }
    }

    var stateName: String {
        switch state {
        case .stopped: "stopped"
        case .starting: "starting"
        case .ready: "ready"
        case .backoff: "restarting"
        case .failed: "failed"
        case .disabled: "disabled"
        case .stopping: "stopping"
        case .remote(let id): id == nil ? "waiting" : "ready"
        }
    }

    /// The style this plugin declared for `intent` (plain until its HELLO says otherwise).
    func style(for intent: String) -> HandlerStyle { styles[intent] ?? .plain }
}
