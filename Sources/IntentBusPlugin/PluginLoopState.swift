import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// A raw handler with its intent's bytes, matched against the intent frame as it arrived.
struct RawRoute {
    let intent: String
    let bytes: [UInt8]
    let handler: RawPluginHandler
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
    /// The constant frames of a raw REPLY, copied into each answer (no allocation).
    let replyKind = Frame(MessageKind.reply.rawValue)
    let rawHeader: Frame
    private let routes: [RawRoute]
    private let routesByName: [String: RawRoute]

    init(rawHandlers: [String: RawPluginHandler], rawReplyHeader: String) {
        rawHeader = Frame(rawReplyHeader)
        routes = rawHandlers.keys.sorted().map { RawRoute(intent: $0, bytes: Array($0.utf8), handler: rawHandlers[$0]!) }
        routesByName = Dictionary(uniqueKeysWithValues: routes.map { ($0.intent, $0) })
    }

    /// The raw handler for the intent named by `frame`. A few intents are compared byte
    /// by byte (no `String`, no hashing); many are looked up by name.
    func rawRoute(for frame: Frame) -> RawRoute? {
        if routes.isEmpty { return nil }
        guard routes.count <= 16 else { return frame.validUTF8.flatMap { routesByName[$0] } }
        return frame.withBytes { bytes -> RawRoute? in
            for route in routes where route.bytes.count == bytes.count {
                if bytes.isEmpty { return route }
                let same = route.bytes.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
                if same { return route }
            }
            return nil
        }
    }
}
