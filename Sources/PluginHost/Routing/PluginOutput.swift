import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// The checks on what a plugin sends on the plain path before the host passes it on to
/// a client: everything the host writes must follow docs/protocol.md, whatever the
/// plugin wrote. The small frames are read (headers, ERROR and PROMPT bodies); a REPLY
/// body is not, so the plain path still moves it without decoding (the SDKs write JSON).
///
/// A part of its own, with no state but what it remembers on the slot (its last good
/// REPLY header): the core's plain path (`RequestPipeline.relayPlain`) asks it, and the relay
/// lane forwards only a header it passed. Runs on the router thread.
enum PluginOutput {
    /// What is wrong with a plugin's REPLY, ERROR, PROMPT or PROGRESS, or nil; `limit` is
    /// `host.limits.max_message_size`.
    static func problem(_ msg: WireMessage, _ slot: PluginSlot, limit: Int) -> String? {
        let size = msg.header.count + msg.body.count
        if size > limit {
            return "the \(msg.kind.rawValue) is \(size) bytes, over the host's limit of \(limit) (host.limits.max_message_size)"
        }
        if msg.header.count > 0, !slot.isKnownGoodHeader(msg.header, kind: msg.kind) {
            let header: JSON
            do { header = try msg.headerJSON() } catch { return "its header is \(error.message)" }
            guard case .object(let fields) = header else { return "its header is not a JSON object" }
            if msg.kind == .reply {
                if let status = fields[.status], status != "success", status != "failure" {
                    return "its REPLY status is \(status.canonicalString.prefix(40)), not \"success\" or \"failure\""
                }
                if let plugin = fields[.plugin], plugin != .string(slot.spec.id) {
                    return "its REPLY header names plugin \(plugin.canonicalString.prefix(80)), not its own id \(slot.spec.id)"
                }
                // Only a header that names the plugin may pass unread (here and on the relay
                // lane); one without is filled in by `nameReplyPlugin` each time.
                if fields[.plugin] != nil { slot.rememberGoodHeader(msg.header, kind: msg.kind) }
            }
        }
        switch msg.kind {
        case .error:
            let body: JSON
            do { body = try msg.bodyJSON() } catch { return "its ERROR body is \(error.message)" }
            guard body["code"]?.stringValue != nil, body["message"]?.stringValue != nil else {
                return "its ERROR body must be an object with a string \"code\" and \"message\""
            }
        case .prompt:
            let body: JSON
            do { body = try msg.bodyJSON() } catch { return "its PROMPT body is \(error.message)" }
            guard body["kind"]?.stringValue != nil else { return "its PROMPT body must be an object with a string \"kind\"" }
        case .progress:
            let body: JSON
            do { body = try msg.bodyJSON() } catch { return "its PROGRESS body is \(error.message)" }
            guard body.objectValue != nil else { return "its PROGRESS body is not a JSON object" }
        default:
            break
        }
        return nil
    }

    /// A plain-path REPLY names who answered (§4.2): a header without `plugin` (an empty
    /// one included) gets the plugin's id. Call after `problem` passed it.
    static func nameReplyPlugin(_ msg: WireMessage, _ slot: PluginSlot) {
        guard msg.kind == .reply, msg.header.count == 0 || !slot.isKnownGoodHeader(msg.header, kind: .reply) else { return }
        var fields = msg.header.count == 0 ? [:] : ((try? msg.headerJSON())?.objectValue ?? [:])
        guard fields[.plugin] == nil else { return }
        fields[.plugin] = .string(slot.spec.id)
        msg.header = Frame(data: JSON.object(fields).canonicalData)
    }
}

extension PluginSlot {
    /// Whether `header` has the same bytes as the last REPLY header of this plugin that
    /// passed the checks: plugins send the same one every time, so the check costs a
    /// compare, not a parse, on the hot path.
    func isKnownGoodHeader(_ header: Frame, kind: MessageKind) -> Bool {
        guard kind == .reply, let good = goodReplyHeader, good.count == header.count else { return false }
        return header.withBytes { bytes in
            good.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        }
    }

    func rememberGoodHeader(_ header: Frame, kind: MessageKind) {
        guard kind == .reply, header.count <= 1_024 else { return }
        goodReplyHeader = header.data
    }
}
