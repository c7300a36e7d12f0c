import Foundation
import IntentBusCore
import IntentBusManifest

/// The router's view of one declared plugin. Owned by the router thread.
final class PluginSlot: PluginView {
    let index: Int
    /// Its life: the one state (running, failed, disabled, retired …), the crash count,
    /// the last error (Supervisor/PluginSupervisor.swift). Only the fleet (`PluginFleet`)
    /// changes it, through its events, and carries out what they return
    /// (Fleet/PluginFleet.swift); and a Majordomo entry's workers (RouterCore+Majordomo.swift).
    var life: PluginSupervisor
    /// Its manifest entry; a hot reload may replace it (Fleet/PluginFleet+Reload.swift).
    var spec: PluginSpec
    /// For the second and later processes of a plugin with `instances: N`: the slot of
    /// its first process, which is the one routed to (Fleet/PluginFleet+Instances.swift).
    var primaryIndex: Int?
    /// On the first process's slot: the slots of the others.
    var instanceSlots: [Int] = []
    /// The one-time token of the current process.
    var token = ""
    /// How many requests were delivered and are not yet answered (the exchanges with this
    /// `pluginIndex` and `delivered` set). A count, not a set of ids: a set cost two hash
    /// operations per request on the hot path (docs/performance.md).
    var inFlight = 0
    /// Requests waiting for the plugin to become ready, in arrival order.
    var waiting: [UInt64] = []
    /// Styles from HELLO, per intent.
    var styles: [String: HandlerStyle] = [:]
    /// New-style metadata from HELLO.
    var metadata: JSON = .object([:])
    /// When the plugin last sent anything (monotonic ns): its liveness.
    var lastHeard: UInt64 = 0
    /// CURVE backend: the User-Id of the connection its HELLO came on; every later message
    /// from its routing id must carry the same (`PluginFleet.pluginMessageBound`).
    var connectionUser: String?
    /// Its HELLO asked for the packed form and the WELCOME agreed (docs/protocol.md §5.1):
    /// the host sends this connection one packed frame per message (up to
    /// `PackedFrame.linkLimit`). Per connection: a new HELLO says again.
    var packedLink = false
    /// Bumped when the plugin starts work, so that a stale idle timer does nothing.
    var idleGeneration: UInt64 = 0
    /// The last REPLY header from this plugin that passed the host's checks
    /// (IntentRouter+PluginOutput.swift).
    var goodReplyHeader: Data?

    init(index: Int, spec: PluginSpec) {
        self.index = index
        self.spec = spec
        life = PluginSupervisor(id: spec.id, enabled: spec.enabled, spawned: spec.isSpawned)
    }

    // Read-only views of `life`, for routing, listings and tests.
    var state: PluginSupervisor.State { life.state }
    var pid: pid_t? { life.pid }
    var isReady: Bool { identity != nil }
    var id: String { spec.id }
    func restrictsWhileLocked(_ intent: String) -> Bool {
        !spec.intentsRestrictedWhileLocked.isEmpty && spec.intentsRestrictedWhileLocked.contains(intent)
    }
    var identity: Data? { life.identity }
    var stateName: String { life.stateName }
    /// Removed from the manifest by a hot reload: never routed to or listed. The same id
    /// added again later takes the slot back.
    var retired: Bool { life.isRetired }
    /// `ib.plugins.disable` holds, whatever the manifest says.
    var disabledAtRunTime: Bool { life.isDisabledAtRunTime }
    /// The breaker is open or half-open.
    var breakerOpen: Bool { life.isBreakerOpen }
    /// Why it can't run (a failed spawn, an open breaker, a refused HELLO), or nil.
    var failureReason: String? { life.failureReason }
    var crashTimes: [UInt64] { life.crashTimes }
    var restarts: Int { life.restarts }
    var lastError: String? { life.lastError?.text }
    var spawnGeneration: UInt64 { life.generation }

    /// The style this plugin declared for `intent` (plain until its HELLO says otherwise).
    func style(for intent: String) -> HandlerStyle { styles[intent] ?? .plain }
}
