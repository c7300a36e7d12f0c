import Foundation
import Synchronization
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Handlers found by the intent frame as it arrived: a few intents are compared byte by
/// byte (no `String`, no hashing); many are looked up by name.
struct IntentRoutes<Handler> {
    struct Route {
        let intent: String
        let bytes: [UInt8]
        let handler: Handler
    }

    private let routes: [Route]
    private let routesByName: [String: Route]

    init(_ handlers: [String: Handler]) {
        routes = handlers.keys.sorted().map { Route(intent: $0, bytes: Array($0.utf8), handler: handlers[$0]!) }
        routesByName = Dictionary(uniqueKeysWithValues: routes.map { ($0.intent, $0) })
    }

    var isEmpty: Bool { routes.isEmpty }

    /// The handler for the intent named by `frame`.
    func route(for frame: Frame) -> Route? {
        if routes.isEmpty { return nil }
        guard routes.count <= 16 else { return frame.validUTF8.flatMap { routesByName[$0] } }
        return frame.withBytes { bytes -> Route? in
            for route in routes where route.bytes.count == bytes.count {
                if bytes.isEmpty { return route }
                let same = route.bytes.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
                if same { return route }
            }
            return nil
        }
    }
}

/// What the socket loop keeps between turns. Owned by the loop's thread, which is the
/// only one to touch it: the run-time exclusivity checks on its two variables cost about
/// 400 instructions per request on the raw path (callgrind, docs/performance.md), so they
/// are off.
final class PluginLoopState {
    /// Async handler tasks started and not yet answered (their final message not sent).
    @exclusivity(unchecked) var pendingTasks = 0
    /// The frames of the message being handled; reused from message to message.
    @exclusivity(unchecked) var frames: [Frame] = []
    /// Answers written in their requests' frames and not sent yet, `heldFrames[0..<held]`:
    /// the answers of one read batch go out together (at most `heldLimit` at a time), so
    /// that libzmq's I/O thread is woken once for them, not once per answer
    /// (docs/performance.md). Sent before anything else is and before the loop waits: the
    /// order on the wire is unchanged. The sets past `held` were sent already; the next
    /// answer's frames are swapped with one of them, which the next message is read into.
    @exclusivity(unchecked) var heldFrames = [[Frame]](repeating: [], count: PluginLoopState.heldLimit)
    @exclusivity(unchecked) var held = 0
    static let heldLimit = 32
    /// The host agreed at WELCOME to the packed form (docs/protocol.md §5.1): answers go
    /// as one packed frame (`packedOut`, reused), and packed messages are read into
    /// `inbox` and split into `frames` (`receive(from:)`).
    @exclusivity(unchecked) var packedLink = false
    @exclusivity(unchecked) var inbox: [Frame] = []
    let packedOut = Frame()
    /// The constant frames of a REPLY and an ERROR, copied into each answer (no allocation).
    let replyKind = Frame(MessageKind.reply.rawValue)
    let errorKind = Frame(MessageKind.error.rawValue)
    /// The REPLY headers a handler that adds no header field gets: `status` and `plugin`.
    let successHeader: Frame
    let failureHeader: Frame
    let rawRoutes: IntentRoutes<RawPluginHandler>
    let syncRoutes: IntentRoutes<PluginSyncHandler>
    /// Async handlers started in the turn that received their request (`serveImmediately`);
    /// empty when handlers run on the global executor.
    let asyncRoutes: IntentRoutes<AsyncHandler>

    init(rawHandlers: [String: RawPluginHandler], syncHandlers: [String: PluginSyncHandler],
         asyncHandlers: [String: AsyncHandler], pluginId: String) {
        successHeader = Frame(PluginReply.header(status: .success, pluginId: pluginId).canonicalString)
        failureHeader = Frame(PluginReply.header(status: .failure, pluginId: pluginId).canonicalString)
        rawRoutes = IntentRoutes(rawHandlers)
        syncRoutes = IntentRoutes(syncHandlers)
        asyncRoutes = IntentRoutes(asyncHandlers)
    }

    /// The last REQUEST header parsed, by its bytes, and its value: the host sends most
    /// requests of an intent the same header (the lane's constant `{"style":"new"}`, the
    /// one-trip `run` header of a legacy intent), which is then compared, not parsed again.
    /// Headers over `cachedHeaderLimit` bytes are parsed every time and not kept.
    @exclusivity(unchecked) private var cachedHeaderBytes: [UInt8] = []
    @exclusivity(unchecked) private var cachedHeader: JSON = .object([:])
    @exclusivity(unchecked) private var cachedHeaderSerial: UInt64 = 0
    static let cachedHeaderLimit = 512
    /// The kept header's serial, unique in the process, for the header `requestHeader` gave
    /// last (0: a header not kept): requests with one serial carry one header value, so
    /// what a layer reads from it can be kept by its serial (`PluginRequest.headerSerial`).
    @exclusivity(unchecked) private(set) var lastHeaderSerial: UInt64 = 0
    private static let headerSerials = Atomic<UInt64>(0)

    /// The REQUEST header in `frame`, parsed, or the kept value when its bytes are those of
    /// the header parsed last.
    func requestHeader(_ frame: Frame) throws(JSONParseError) -> JSON {
        let same = frame.withBytes { raw -> Bool in
            raw.count == cachedHeaderBytes.count
                && (raw.isEmpty || cachedHeaderBytes.withUnsafeBytes { memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 })
        }
        if same {
            lastHeaderSerial = cachedHeaderSerial
            return cachedHeader
        }
        lastHeaderSerial = 0
        let header = try frame.parseJSON()
        frame.withBytes { raw in
            guard raw.count <= Self.cachedHeaderLimit else { return }
            cachedHeaderBytes = Array(raw.bindMemory(to: UInt8.self))
            cachedHeader = header
            cachedHeaderSerial = Self.headerSerials.add(1, ordering: .relaxed).newValue
            lastHeaderSerial = cachedHeaderSerial
        }
        return header
    }

    /// The constant header frame for a reply with no extra header fields.
    func constantHeader(_ status: PluginReply.Status) -> Frame {
        status == .success ? successHeader : failureHeader
    }
}
