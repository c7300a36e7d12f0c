import Foundation

/// An intent the lane takes: its one plugin, timeout, and the check of a non-plain style.
typealias LaneRoute = (intent: String, slot: Int, timeout: UInt64, check: (any LaneRequestCheck)?)

/// What the relay lane may route in one routing epoch (`PluginFleet.routingEpoch`): the
/// intents it takes, each with its one plugin, and the plugins' connection identities.
/// Rebuilt when the epoch changes (a HELLO, a DISCONNECT, an exit, a reload).
struct RelayRoutes {
    struct Route {
        let intent: String
        let bytes: [UInt8]
        let slot: Int
        /// The plugin timeout, in ns (`timeout`, at most 24 hours, as the core's).
        let timeout: UInt64
        /// Its queue in `RelayDeadlines`.
        let queue: Int
        /// For an intent of another style than plain: the extension's check of each body
        /// (`LaneRequestCheck`), and the header frame its plugin gets.
        let check: (any LaneRequestCheck)?
    }

    private(set) var routes: [Route] = []
    private var index = ByteIndex()
    /// The core's `routingEpoch` these routes were built for (none yet: `.max`).
    var epoch: UInt64 = .max
    /// By slot index: the identity bytes of the plugin's connection, when it is connected.
    private(set) var peers: [[UInt8]?] = []

    init() {}

    /// Routes for `epoch`: the intents the core lets into the lane (`RouterCore.laneRoutes`),
    /// each with its plugin and timeout, and the plugins' connection identities by slot.
    init(epoch: UInt64, intents: [LaneRoute],
         peers: [[UInt8]?], deadlines: inout RelayDeadlines) {
        self.epoch = epoch
        self.peers = peers
        index = ByteIndex(capacity: intents.count)
        for (intent, slot, timeout, check) in intents {
            let bytes = [UInt8](intent.utf8)
            let h = bytes.withUnsafeBytes { ByteHash.hash($0) }
            index.insert(h, Int32(routes.count))
            routes.append(Route(intent: intent, bytes: bytes, slot: slot, timeout: timeout,
                                queue: deadlines.queue(for: timeout), check: check))
        }
    }

    /// The route for an intent name's bytes, or nil when the lane does not take it.
    @inline(__always) func find(_ intent: UnsafeRawBufferPointer) -> Int? {
        let h = ByteHash.hash(intent)
        return index.find(h) { i in routes[Int(i)].bytes.withUnsafeBytes { $0.sameBytes(intent) } }.map(Int.init)
    }

    /// `find`, for the lane's hot path on its stored routes (`RelayLane.routes`, a class's
    /// property): `mutating` only so that the call works on them in place. A non-mutating
    /// call there copied the whole value first (four arrays retained and released per
    /// request: callgrind's `RelayRoutesVWOc` in `takeRequest`). It changes nothing.
    @inline(__always) mutating func findInPlace(_ intent: UnsafeRawBufferPointer) -> Int? { find(intent) }
}

/// The clients with requests in the lane: identity → its number of open lane requests.
/// Clients with none are swept in bulk once the table has doubled, like `ClientTable`.
struct RelayClients {
    private var index = ByteIndex()
    private var keys: [[UInt8]] = []
    private(set) var open: [Int32] = []
    /// Their header and body bytes.
    private(set) var bytes: [Int32] = []
    private var free: [Int32] = []
    private var sweepAt = 1_024

    /// The client with these identity bytes (`hash` = `ByteHash.hash(identity)`), or nil.
    @inline(__always) func find(_ identity: UnsafeRawBufferPointer, hash: UInt64) -> Int32? {
        index.find(hash) { i in keys[Int(i)].withUnsafeBytes { $0.sameBytes(identity) } }
    }

    /// The client with these identity bytes, added when new.
    mutating func findOrAdd(_ identity: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        if let c = find(identity, hash: hash) { return c }
        if keys.count - free.count >= sweepAt { sweep() }
        let c: Int32
        if let reused = free.popLast() {
            c = reused
            keys[Int(c)] = [UInt8](identity)
            open[Int(c)] = 0
            bytes[Int(c)] = 0
        } else {
            c = Int32(keys.count)
            keys.append([UInt8](identity))
            open.append(0)
            bytes.append(0)
        }
        index.insert(hash, c)
        return c
    }

    @inline(__always) mutating func opened(_ c: Int32, bytes n: Int) {
        open[Int(c)] += 1
        bytes[Int(c)] += Int32(n)
    }

    @inline(__always) mutating func closed(_ c: Int32, bytes n: Int) {
        open[Int(c)] -= 1
        bytes[Int(c)] -= Int32(n)
    }

    private mutating func sweep() {
        for c in keys.indices where open[c] == 0 && !keys[c].isEmpty {
            index.remove(keys[c].withUnsafeBytes { ByteHash.hash($0) }, Int32(c))
            keys[c] = []
            free.append(Int32(c))
        }
        sweepAt = max(1_024, (keys.count - free.count) * 2)
    }
}

/// One request the lane holds. The client's identity and request id frames are kept in
/// the lane's `MessageStore` under the same index (parts 0 and 1).
struct RelayEntry {
    /// 0 when the entry is free; else the high half of its lane id.
    var serial: UInt32 = 0
    var slot: Int32 = 0
    var route: Int32 = 0
    var client: Int32 = 0
    var isRequestReply = false
    var startedAt: UInt64 = 0
    var deadline: UInt64 = 0
    /// The hash of (identity, request id) in the lane's open-request index.
    var keyHash: UInt64 = 0
    /// Its plugin timeout (ns): the route's, or the header's `timeout_ms`.
    var timeout: UInt64 = 0
    /// Its deadline queue in `RelayDeadlines`.
    var queue: Int32 = 0
    /// Its header and body bytes (under 1 KiB).
    var size: Int32 = 0
    /// Admitted by its route's `LaneRequestCheck` (a new-style request): its body is kept
    /// in the lane's `bodies`, and its REPLY is the check's extension's to see.
    var checked = false
    /// Its client header's index in the lane's `LaneHeaders`, or -1 for none.
    var header: Int32 = -1
}
