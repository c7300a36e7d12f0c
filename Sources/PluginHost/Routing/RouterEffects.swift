import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusProcess
import IntentBusManifest
import IntentBusStore

/// What the router core asks the world to do. The core (`RouterCore`) does no I/O of its
/// own: it takes events (frames from a client or a plugin, a due timer, a child's exit, a
/// signal) and carries out their consequences through this interface. `RouterShell`
/// implements it with the sockets and the process launcher; the core's unit tests
/// implement it with a recorder and a clock they set.
///
/// Every call happens on the router thread.
protocol RouterEffects: AnyObject {
    /// Monotonic time, in nanoseconds.
    func now() -> UInt64
    /// Sends a message to a client. A client whose pipe is full gets it later, in order.
    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage)
    /// How many messages wait for this client because it is not reading (0: none).
    func clientBacklog(_ identity: Data) -> Int
    /// Sends frames to a plugin's connection.
    func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome
    /// Sends on what the relay lane forwards: frames moved from the received message `m`
    /// and from the lane's `store` (RawForward). Nothing is sent when the first frame, the
    /// peer's routing id, can't be.
    func forwardRaw(_ forward: borrowing RawForward, from m: RawMessage, store: MessageStore) -> SendStatus
    /// Whether answers wait for some client that is not reading (then the lane takes
    /// nothing: order and `busy` answers stay the general path's).
    var anyClientBacklog: Bool { get }
    /// Starts a plugin's process with its one-time token; its exit must come back as
    /// `RouterEvent.pluginExited`.
    func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError>
    /// Signals a process the core started (and has not seen exit).
    func signal(_ pid: pid_t, _ signal: Int32)
    /// The resident memory of a process the core started, for `memory_limit` (a default
    /// reads /proc: Fleet/PluginFleet+Lifecycle.swift).
    func residentBytes(_ pid: pid_t) -> UInt64?
}

/// How a send to a plugin went.
enum PluginSendOutcome {
    case sent
    /// Its pipe is full: the plugin is not reading fast enough.
    case full
    /// The connection is gone, or the send failed.
    case unreachable(String)
}

/// Something that happened off the router thread, delivered through the shell's mailbox.
enum RouterEvent: Sendable {
    case pluginExited(index: Int, pid: pid_t, status: ExitStatus)
    /// A remembered-choice write committed (or failed) on the choice writer's thread.
    case choiceWritten(id: UInt64, result: Result<ChoiceWriteOutcome, ChoiceStoreError>)
    /// Work an extension ran on a thread of its own finished (the shortcut store's
    /// writer); handed to the extensions' `finished(id:result:)`.
    case extensionFinished(id: UInt64, result: Result<JSON, BusError>)
    /// Another host changed the shared state (`host.state: postgresql://…`): the tables
    /// as they are now, for the choice book and the extensions' caches.
    case stateReloaded(StateReload)
    case shutdown
    /// Re-read the manifest (SIGHUP); `trigger` says why, for the log.
    case reload(trigger: String)
}

/// Timers the core keeps.
enum RouterTimer {
    /// The plugin did not answer in time.
    case requestDeadline(hostId: UInt64, generation: UInt64)
    /// Nobody answered a prompt in time.
    case conversationExpiry(hostId: UInt64, generation: UInt64)
    /// Start a crashed plugin again.
    case restart(index: Int)
    /// A spawned plugin did not say HELLO in time.
    case handshakeDeadline(index: Int, generation: UInt64)
    /// Shutdown: signal the plugins that are still running.
    case stopPlugins(signal: Int32)
    /// A plugin whose handshake was rejected has not exited on its own.
    case stopRejected(pid: pid_t)
    /// Send a ready plugin its next HEARTBEAT and check that it is alive.
    case heartbeat(index: Int, generation: UInt64)
    /// A plugin being stopped on purpose: signal it if it is still running.
    case stopStopping(index: Int, pid: pid_t, signal: Int32)
    /// An on-demand plugin may have been idle long enough.
    case idle(index: Int, generation: UInt64)
    /// The breaker's cool-down is over: try one start.
    case breakerRetry(index: Int)
    /// Shutdown: the drain is over, whatever is still open.
    case drainOver
}
