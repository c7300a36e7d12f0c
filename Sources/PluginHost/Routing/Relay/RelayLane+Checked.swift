import Foundation
import IntentBusCore
import IntentBusZMQ

/// The lane's part for requests of another style than plain that their extension's check
/// admitted (`LaneRequestCheck`: a new-style `perform()` whose body the flow would forward
/// unchanged). The REQUEST goes out with the check's header and the client's body frame;
/// the body is kept for the extension, which sees the request end when its REPLY is
/// forwarded (`LaneCore.laneSucceeded`: the shortcuts extension's donation) or start when
/// it is promoted, with the extension's flow as after its REQUEST was sent
/// (RelayLane+Promotion.swift). Everything else is the plain lane's.
extension RelayLane {
    /// Keeps a checked request's body (under 1 KiB) in `bodies` under its entry, and what
    /// its check read of it in `passes`.
    func keep(_ e: Int, _ body: UnsafeRawBufferPointer, _ pass: LanePass) {
        bodies.reserve(upTo: e)
        bodies.set(e, 0, count: body.count) { dst in
            if let base = body.baseAddress { dst.update(from: base.assumingMemoryBound(to: UInt8.self), count: body.count) }
        }
        if passes.count <= e { passes += Array(repeating: nil, count: e + 1 - passes.count) }
        passes[e] = pass
    }

    /// Lets go of what `keep` kept for entry `e`.
    func forget(_ e: Int) {
        bodies.release(e, 0)
        passes[e] = nil
    }

    /// What the check read of entry `e`'s body (`keep`).
    func pass(_ e: Int) -> LanePass { passes[e] ?? .unread }

    /// The client's REPLY the route's check makes of the plugin's REPLY `m` for entry `e`
    /// (`LaneRequestCheck.rewrite`: a legacy run that went all the way), when no extension
    /// asks to see a REPLY with that header; nil: forwarded as is, or promoted.
    func rewrittenReply<Core: LaneCore>(_ m: RawMessage, _ e: Int, route: Int, _ core: Core) -> LaneRewrite? {
        guard let check = routes.routes[route].check,
              let rewritten = check.rewrite(requestId: store.bytes(e, 1), passed: pass(e), replyHeader: m.bytes(5),
                                            replyBody: m.bytes(6), logger: core.logger),
              !rewritten.header.withUnsafeBytes({ header in
                  core.extensions.contains { $0.needs.contains(.everyPlainReply) || $0.needsToSee(replyHeader: header) }
              }) else { return nil }
        return rewritten
    }

    /// Whether a checked request's REPLY `m` may be forwarded as is: its body one the route's
    /// check says the flow forwards unread (`forwards(replyBody:)`: no result that leads
    /// on), its header one `isCheckedReplyHeader` passes.
    func isCheckedReply<Core: LaneCore>(_ m: RawMessage, route: Int, slot: Int, _ core: Core) -> Bool {
        guard let check = routes.routes[route].check, check.forwards(replyBody: m.bytes(6)) else { return false }
        return isCheckedReplyHeader(m.bytes(5), slot: slot, core)
    }

    /// Whether a checked request's REPLY with this header may be forwarded as is: the flow
    /// forwards a REPLY header as written when it is an object with a `status` (it reads
    /// nothing else of it: `PluginOutput`'s checks are the plain path's), and the shortcuts
    /// extension donates when that status is not `failure` and no donation is named. A
    /// header with no status (the flow adds one), a failure, a donation, `entities_changed`,
    /// or one an extension asks to see goes to the general path (promoted). Parsed once
    /// per plugin and header.
    func isCheckedReplyHeader<Core: LaneCore>(_ header: UnsafeRawBufferPointer, slot: Int, _ core: Core) -> Bool {
        if slot < checkedHeaders.count, let known = checkedHeaders[slot], known.withUnsafeBytes({ $0.sameBytes(header) }) {
            return true
        }
        guard let fields = (try? JSON.parse(bytes: header))?.objectValue, let status = fields["status"],
              status.stringValue != "failure", fields["entities_changed"] == nil,
              fields["donation"] == nil, fields["delete_donations"] == nil,
              !core.extensions.contains(where: { $0.needs.contains(.everyPlainReply) || $0.needsToSee(replyHeader: header) })
        else { return false }
        if checkedHeaders.count <= slot { checkedHeaders += Array(repeating: nil, count: slot + 1 - checkedHeaders.count) }
        checkedHeaders[slot] = [UInt8](header)
        return true
    }
}
