import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// The core's book of open requests: the exchanges, the clients that opened them, the
/// timers, and the one place an exchange is closed. A value the request pipeline owns
/// (`RequestPipeline.book`; the core reads it as `RouterCore.book`), changed in place: its
/// parts are the value types `ExchangeTable`, `ClientTable` and `TimerHeap`, so a struct
/// adds nothing per request to what the core held before (no box, no retain; one exclusive access to `book` where there were
/// separate ones to `exchanges`, `openBytes` and `timers`).
///
/// It decides the bookkeeping and answers with small results; the core carries them out
/// (a slot's `inFlight`, extensions, the client's final message). Unit-tested as a value
/// in ExchangeBookTests.
///
/// Owned by the router thread.
struct ExchangeBook {
    /// How the end of an exchange concerns its plugin.
    enum Release: Equatable {
        /// The plugin had it: one fewer in flight.
        case inFlight
        /// It waited for the plugin to be ready: off the plugin's queue.
        case waiting
        /// No plugin was chosen yet (the client was choosing).
        case nothing
    }

    /// What the core does when an exchange closes.
    struct Closing: Equatable {
        let release: Release
        /// Whether the final message goes to the client: not to a connection known to be
        /// gone (its routing id may have been taken over), and no RESULT to a REQ client,
        /// which must alternate send and receive.
        let tellClient: Bool
    }

    private(set) var table = ExchangeTable()
    /// The header and body bytes of every open exchange (`Exchange.requestBytes`).
    private(set) var openBytes = 0
    var clients = ClientTable()
    /// Every timer of the core, the exchanges' and the plugins' (one heap, so that timers
    /// due at the same moment keep their order).
    private(set) var timers = TimerHeap<RouterTimer>()

    /// The number of open exchanges.
    var count: Int { table.count }

    /// The open exchange with this host id, or nil.
    subscript(id: UInt64) -> Exchange? { table[id] }

    /// The open exchange with this plugin-side request id (base 36), or nil.
    subscript(wireId wireId: String) -> Exchange? { table[wireId: wireId] }

    /// Every open exchange, oldest first.
    var all: [Exchange] { table.all }

    /// A fresh host id, for the exchange about to be opened with it.
    mutating func nextId() -> UInt64 { table.nextId() }

    /// The client's open request `requestId`, or nil.
    func open(client identity: Data, requestId: String) -> Exchange? {
        guard let hostId = clients.existing(identity)?.open[requestId] else { return nil }
        return table[hostId]
    }

    // MARK: - Opening and closing

    /// Opens a new exchange for the client's REQUEST `msg`, under a fresh host id, in the
    /// stage `pending` (waiting for its plugin, `pluginIndex`) with what it is delivered with.
    mutating func open(_ envelope: RoutingEnvelope, _ state: ClientState, _ msg: WireMessage, pluginIndex: Int,
                       timeout: UInt64, options: JSON, header: Frame, body: Frame) -> Exchange {
        let exchange = Exchange(hostId: nextId(), client: envelope, clientState: state,
                                clientRequestId: msg.requestId, intent: msg.intent, pluginIndex: pluginIndex,
                                timeout: timeout, options: options, stage: .pending(header: header, body: body))
        open(exchange, bytes: msg.header.count + msg.body.count)
        return exchange
    }

    /// Opens `exchange` (under the id `nextId()` just returned), counting `bytes` for its
    /// client and the host. A lane request the core promotes keeps its lane id
    /// (`promoted`); its bytes are the ones the lane counted.
    mutating func open(_ exchange: Exchange, bytes: Int, promoted: Bool = false) {
        if promoted { table.insertPromoted(exchange) } else { table.insert(exchange) }
        let state = exchange.clientState
        state.open[exchange.clientRequestId] = exchange.hostId
        exchange.requestBytes = bytes
        state.openBytes += bytes
        openBytes += bytes
    }

    /// Closes `exchange`, whose final message is of `kind`: nil when it was closed already,
    /// so that a request ends exactly once. Its timers go stale.
    mutating func close(_ exchange: Exchange, final kind: MessageKind) -> Closing? {
        guard table.remove(exchange.hostId) != nil else { return nil }
        let state = exchange.clientState
        state.open.removeValue(forKey: exchange.clientRequestId)
        state.openBytes -= exchange.requestBytes
        openBytes -= exchange.requestBytes
        exchange.generation += 1
        let release: Release
        switch exchange.stage {
        case .delivered, .prompting: release = .inFlight
        case .pending: release = .waiting
        case .choosing: release = .nothing
        }
        return Closing(release: release, tellClient: !state.gone && (kind != .result || !exchange.client.isRequestReply))
    }

    /// The connection of `old` has gone (another connection took over its routing id):
    /// its state is marked gone, so nothing more is sent to it, and replaced by a fresh
    /// one for the newcomer. Returns the exchanges the old connection had open, for the
    /// core to end, and the fresh state.
    mutating func clientGone(_ old: ClientState) -> (open: [Exchange], fresh: ClientState) {
        old.gone = true
        let open = old.open.values.compactMap { table[$0] }
        return (open, clients.replace(old.identity))
    }

    /// The open exchanges delivered to plugin `index` (it exited or hung).
    func delivered(to index: Int) -> [Exchange] {
        table.all.filter { $0.isDelivered && $0.pluginIndex == index }
    }

    // MARK: - Timers

    /// Arms the exchange's deadline (the plugin must answer) for `at`, monotonic ns; an
    /// earlier deadline or expiry of it goes stale.
    mutating func armDeadline(_ exchange: Exchange, at: UInt64) {
        exchange.generation += 1
        timers.schedule(at: at, .requestDeadline(hostId: exchange.hostId, generation: exchange.generation))
        compactIfStale()
    }

    /// Arms the expiry of the exchange's open question (the client must answer) for `at`.
    mutating func armExpiry(_ exchange: Exchange, at: UInt64) {
        exchange.generation += 1
        timers.schedule(at: at, .conversationExpiry(hostId: exchange.hostId, generation: exchange.generation))
        compactIfStale()
    }

    /// The open exchange a deadline or expiry is for, while it is the exchange's current
    /// one; nil for a stale timer (its exchange closed or re-armed) and for plugin timers.
    func exchange(of timer: RouterTimer) -> Exchange? {
        switch timer {
        case .requestDeadline(let hostId, let generation), .conversationExpiry(let hostId, let generation):
            guard let exchange = table[hostId], exchange.generation == generation else { return nil }
            return exchange
        default:
            return nil
        }
    }

    /// Arms a timer that is not an exchange's (a plugin's, the drain's, shutdown's) for
    /// `at`, monotonic ns: it checks its own generation when it fires.
    mutating func schedule(_ timer: RouterTimer, at: UInt64) {
        timers.schedule(at: at, timer)
    }

    /// Removes and returns the timers due at `now`, earliest first.
    mutating func popDue(now: UInt64) -> [RouterTimer] {
        timers.isEmpty ? [] : timers.popDue(now: now)
    }

    /// A closed request leaves its deadline in the heap until it would fire. Under load
    /// that is one stale entry per request for a whole timeout: at 70,000 requests/s and a
    /// 10 s timeout, hundreds of thousands of entries and tens of MB (docs/performance.md).
    /// Dropping them once they outnumber the open requests keeps the heap proportional to
    /// the work in progress, at an amortised O(1) per request.
    private mutating func compactIfStale() {
        guard timers.count > Self.staleTimerSlack + 4 * table.count else { return }
        let table = table  // read while the heap is rebuilt (a retain, once per compaction)
        timers.compact { timer in
            switch timer {
            case .requestDeadline(let hostId, let generation), .conversationExpiry(let hostId, let generation):
                table[hostId]?.generation == generation
            default:
                true  // plugin timers are few and check their own generation
            }
        }
    }

    /// Stale timers tolerated beyond four per open exchange before the heap is compacted.
    static let staleTimerSlack = 4_096
}
