import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// MDP clients as the router core sees them: ordinary frontend clients. Each MDP client
/// connection gets a stand-in identity (`MajordomoIdentity`), and each of its requests an
/// IB1 REQUEST with a request id of the host's making, so the core routes it like any
/// other: choices, defaults, flows, timeouts and the one final answer.
///
/// What the core then sends that client comes back here and becomes exactly one MDP
/// reply: a final REPLY as the handler's frames unchanged (or, in the envelope form, as
/// JSON with `status`), an ERROR as JSON, a PROMPT as the `prompt_required` error (an MDP
/// client can't answer a question; the request is cancelled in the core), PROGRESS
/// dropped. Anything after the reply (the `cancelled` that follows a prompt) is dropped.
///
/// Requests for a plugin at its `max_in_flight` wait here (`enqueue`), at most
/// `mdp_queue` of them, until it has room or the plugin's timeout has passed.
///
/// Owned by the router thread.
final class MajordomoClients {
    /// One request the core holds for an MDP client.
    private struct Pending {
        let peer: Data
        let key: PeerKey
        let service: Data
        let standIn: Data
        let form: MajordomoReplyForm
    }

    /// A request waiting for room at its plugin: the IB1 frames to hand the core then.
    private struct Queued {
        let id: String
        let intent: String
        let frames: [Frame]
        let due: UInt64
        let plugin: String
    }

    private let identities: MajordomoIdentity
    private let bodies: MajordomoFrames
    private var queue: [Queued] = []
    private var queuedIntents: [String: Int] = [:]
    /// Request id → its client and service.
    private var pending: [String: Pending] = [:]
    /// An MDP client connection → its stand-in identity and how many requests it has open.
    private var standIns: [PeerKey: (identity: Data, open: Int)] = [:]
    private var serial: UInt64 = 0

    init(identities: MajordomoIdentity, bodies: MajordomoFrames) {
        self.identities = identities
        self.bodies = bodies
    }

    /// How many MDP requests are open (for tests and logs).
    var openCount: Int { pending.count }

    /// How many wait for room at their plugin.
    var queuedCount: Int { queue.count }

    /// Whether requests for `intent` wait already (a new one waits behind them).
    func hasQueued(_ intent: String) -> Bool { queuedIntents[intent] != nil }

    /// A REQUEST from MDP client `peer` for `service` with the parameters `body`: the IB1
    /// frames to hand the core as if they came from a frontend client (stand-in identity
    /// first), and the stand-in identity.
    /// `user`: the connection's User-Id (tcp with CURVE), so that a connection reusing
    /// another's routing id gets a stand-in of its own.
    /// `header`: the request header the core checks (empty, or the context the service
    /// name carried).
    func request(peer: Data, user: String? = nil, service: String, serviceFrame: Data, header: Frame = Frame(), body: Frame,
                 form: MajordomoReplyForm) -> (id: String, frames: [Frame]) {
        serial += 1
        let id = "mdp-\(String(serial, radix: 36))"
        let key = Self.key(peer: peer, user: user)
        var entry = standIns[key] ?? (identity: identities.client(serial), open: 0)
        entry.open += 1
        standIns[key] = entry
        pending[id] = Pending(peer: peer, key: key, service: serviceFrame, standIn: entry.identity, form: form)
        let msg = WireMessage(kind: .request, requestId: id, intent: service, header: header, body: body)
        return (id, msg.frames(after: [Frame(data: entry.identity)]))
    }

    /// Keeps the request of `frames` (from `request`) until its plugin has room.
    func enqueue(_ frames: [Frame], id: String, intent: String, plugin: String, due: UInt64) {
        queue.append(Queued(id: id, intent: intent, frames: frames, due: due, plugin: plugin))
        queuedIntents[intent, default: 0] += 1
    }

    /// Hands `submit` what may go to the core now, in arrival order (`full(intent)`: its
    /// plugin is still at its limit; once so, the intent's later requests wait too), and
    /// returns the replies for what waited past its plugin's timeout. `submit` may call
    /// the core: the queue is taken out first.
    func dequeue(now: UInt64, full: (String) -> Bool, submit: ([Frame]) -> Void) -> [(peer: Data, frames: [Frame])] {
        guard !queue.isEmpty else { return [] }
        let items = queue
        queue.removeAll(keepingCapacity: true)
        var expired: [(peer: Data, frames: [Frame])] = []
        var stillFull: Set<String> = []
        for item in items {
            if now < item.due, stillFull.contains(item.intent) || full(item.intent) {
                stillFull.insert(item.intent)
                queue.append(item)
                continue
            }
            queuedIntents[item.intent, default: 1] -= 1
            if queuedIntents[item.intent] == 0 { queuedIntents.removeValue(forKey: item.intent) }
            if now < item.due {
                submit(item.frames)
            } else if let request = pending[item.id] {
                finished(item.id, request)
                let error = BusError(.timeout, "the request waited in the MDP queue for \(item.intent) until plugin \(item.plugin)'s timeout: it stayed at its max_in_flight",
                                     details: ["plugin": .string(item.plugin)])
                expired.append((request.peer, MajordomoMessage.clientReply(service: request.service,
                    body: JSON.object(["status": "error", "error": error.json]).canonicalData)))
            }
        }
        return expired
    }

    /// When the oldest waiting request expires.
    var nextDeadline: UInt64? { queue.map(\.due).min() }

    /// What the core sent to a stand-in identity.
    enum Outcome {
        /// Nothing to send (PROGRESS, or a message after the reply).
        case none
        /// The one MDP reply for the request.
        case reply(peer: Data, frames: [Frame])
        /// The reply, and the request must be cancelled in the core (it asked a question):
        /// these IB1 frames, stand-in identity first, are the CANCEL to hand the core.
        case replyAndCancel(peer: Data, frames: [Frame], cancel: [Frame])
    }

    /// Translates one message the core sent to an MDP client.
    func fromCore(_ msg: WireMessage) -> Outcome {
        guard msg.kind != .progress, let request = pending[msg.requestId] else { return .none }
        let body: JSON
        var cancel = false
        switch msg.kind {
        case .reply:
            let frames = bodies.unpack(msg.body) ?? [msg.body]
            if request.form == .body {
                finished(msg.requestId, request)
                return .reply(peer: request.peer, frames: MajordomoMessage.clientReply(service: request.service, frames: frames))
            }
            body = Self.replyBody(msg, frames: frames)
        case .error, .refused:
            body = ["status": "error", "error": (try? msg.bodyJSON()) ?? BusError(.internalError, "an unreadable error").json]
        case .prompt:
            body = Self.promptRequired(intent: msg.intent, prompt: (try? msg.bodyJSON()) ?? .object([:]))
            cancel = true
        default:
            return .none
        }
        finished(msg.requestId, request)
        let frames = MajordomoMessage.clientReply(service: request.service, body: body.canonicalData)
        guard cancel else { return .reply(peer: request.peer, frames: frames) }
        let cancelMsg = WireMessage(kind: .cancel, requestId: msg.requestId, intent: msg.intent, header: Frame(), body: Frame())
        return .replyAndCancel(peer: request.peer, frames: frames, cancel: cancelMsg.frames(after: [Frame(data: request.standIn)]))
    }

    private func finished(_ id: String, _ request: Pending) {
        pending.removeValue(forKey: id)
        let key = request.key
        guard var entry = standIns[key] else { return }
        entry.open -= 1
        // A client with nothing open is forgotten; its next request gets a new stand-in,
        // so the table holds only clients with open requests.
        if entry.open <= 0 { standIns.removeValue(forKey: key) } else { standIns[key] = entry }
    }

    /// The routing id (length first: ids are up to 255 bytes) and the User-Id.
    private static func key(peer: Data, user: String?) -> PeerKey {
        guard let user else { return PeerKey(identity: peer) }
        var bytes = Data([UInt8(truncatingIfNeeded: peer.count)])
        bytes.append(peer)
        bytes.append(contentsOf: user.utf8)
        return PeerKey(identity: bytes)
    }

    // MARK: - The reply bodies (docs/mdp.md, "Replies")

    /// A final REPLY in the envelope form: `{"status", "plugin", "result", "dialog"?}`;
    /// `result` is the body's JSON, else its text; several frames, a list of them.
    static func replyBody(_ msg: WireMessage, frames: [Frame]) -> JSON {
        let header = (try? msg.headerJSON()) ?? .object([:])
        func value(_ frame: Frame) -> JSON {
            if frame.count == 0 { return .object([:]) }
            if let parsed = try? JSON.parse(frame.data) { return parsed }
            return .string(String(decoding: frame.data, as: UTF8.self))
        }
        let result = frames.count == 1 ? value(frames[0]) : .array(frames.map(value))
        var out: [String: JSON] = ["status": header[.status] ?? "success", "result": result]
        if let plugin = header[.plugin] { out["plugin"] = plugin }
        if let code = header[.code] { out["code"] = code }
        if let dialog = result["dialog"]?.stringValue { out["dialog"] = .string(dialog) }
        return .object(out)
    }

    /// The `prompt_required` error for a PROMPT: what the intent needed, which an MDP
    /// client has no way to answer.
    static func promptRequired(intent: String, prompt: JSON) -> JSON {
        let kind = prompt["kind"]?.stringValue ?? PromptKind.value.rawValue
        let parameter = prompt["parameter"]?.stringValue
        let dialog = prompt["dialog"]?.stringValue
        let what: String
        switch PromptKind(rawValue: kind) {
        case .pluginChoice?:
            let ids = (prompt["options"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            what = "a choice among the plugins that claim it (\(ids.joined(separator: ", "))); remember one (intentbus choices set \(intent) PLUGIN) or set host.defaults"
        case .value?:
            what = "a value for \(parameter.map { "parameter \"\($0)\"" } ?? "a parameter"); send it in the request body"
        case .disambiguation?:
            let ids = (prompt["options"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            what = "a choice for \(parameter.map { "parameter \"\($0)\"" } ?? "a parameter") among \(ids.joined(separator: ", ")); send one of those ids in the request body"
        case .confirmation?:
            what = "a confirmation\(parameter.map { " of parameter \"\($0)\"" } ?? "")"
        case nil:
            what = "an answer to a \(kind) question"
        }
        var details: [String: JSON] = ["kind": .string(kind), "prompt": prompt]
        if let parameter { details["parameter"] = .string(parameter) }
        let message = "\(intent) needs \(what)\(dialog.map { " (it asked: \($0))" } ?? ""); an MDP request can't answer questions, so it was cancelled"
        return ["status": "error", "error": ["code": "prompt_required", "message": .string(message), "details": .object(details)]]
    }
}
