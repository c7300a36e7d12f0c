import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Options a client can put in a REQUEST header (docs/protocol.md §4.1).
public struct RequestOptions: Sendable {
    /// Overrides the plugin's timeout.
    public var timeout: Duration?
    /// Route to this plugin, bypassing the choice prompt.
    public var plugin: String?
    /// What to do when several plugins claim the intent: `ask`, `fail` or `default`.
    public var choicePolicy: String?
    /// With `plugin`: remember it as the "always" choice.
    public var remember: Bool = false
    /// A stable client identity, for per-client remembered choices.
    public var clientIdentity: String?
    /// The shared client credential for restricted intents.
    public var credential: String?
    /// The user's locale (`de-DE`, `de_DE`, `en`): a legacy intent from an `.intentdefinition`
    /// speaks its dialogs in that language when its `Intents.strings` has it, and new-style
    /// plugins answer in it when they have its strings (LocalizedStringResource, docs/appintents.md).
    public var locale: String?
    /// The request's context (satellite, area, language, …): a flat object of strings,
    /// numbers and booleans. Sentence templates may require or exclude values of it, and
    /// the plugin gets it in its delivery header (docs/protocol.md §4.1).
    public var context: [String: JSON]?

    public init() {}

    /// The REQUEST header, or nil when nothing is set (an empty frame goes on the wire).
    public var header: JSON? {
        var h: [String: JSON] = [:]
        if let timeout { h["timeout_ms"] = .int(timeout.wholeMilliseconds) }
        if let plugin { h["plugin"] = .string(plugin) }
        if let choicePolicy { h["choice"] = .string(choicePolicy) }
        if remember { h["remember"] = .bool(true) }
        if let clientIdentity { h["client"] = .string(clientIdentity) }
        if let credential { h["credential"] = .string(credential) }
        if let locale { h["locale"] = .string(locale) }
        if let context { h["context"] = .object(context) }
        return h.isEmpty ? nil : .object(h)
    }
}

/// A final REPLY.
public struct IntentReply: Sendable {
    /// `success` or `failure`, from the REPLY header.
    public let status: String
    /// The plugin that answered, when the header names it.
    public let plugin: String?
    public let header: JSON
    public let body: JSON
    /// The results of the intents that opened this one, oldest first (RESULT messages,
    /// docs/results.md); empty when the request ran one intent.
    public var earlier: [IntentReply] = []

    public var succeeded: Bool { status == "success" }
}

/// A question from the host (PROMPT body), as a client sees it.
public struct Prompt: Sendable {
    public let kind: String
    public let parameter: String?
    public let dialog: String
    public let options: [JSON]
    /// The whole PROMPT body, for fields this type doesn't name.
    public let raw: JSON

    public init(_ body: JSON) {
        raw = body
        kind = body["kind"]?.stringValue ?? "value"
        parameter = body["parameter"]?.stringValue
        dialog = body["dialog"]?.stringValue ?? ""
        options = body["options"]?.arrayValue ?? []
    }
}

/// What a client is told before the final answer.
public enum ClientEvent: Sendable {
    case progress(JSON)
    case prompt(Prompt)
}

/// How a client fails.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// The host answered with ERROR.
    case bus(BusError)
    /// The host did not answer at all within the wait (is it running?).
    case noAnswer(endpoint: String, waited: Duration)
    /// A socket call failed.
    case transport(ZMQError)
    /// The host sent something that isn't IB1.
    case protocolViolation(String)
    /// The prompt handler gave up (no answer available).
    case unanswered(Prompt)

    public var description: String {
        switch self {
        case .bus(let e): "\(e.code.rawValue): \(e.message)"
        case .noAnswer(let ep, let waited): "no answer from the host at \(ep) within \(waited.humanText) (is `intentbus host` running?)"
        case .transport(let e): "transport: \(e)"
        case .protocolViolation(let m): "protocol violation: \(m)"
        case .unanswered(let p): "the host asked \"\(p.dialog)\" (\(p.kind)\(p.parameter.map { " for \($0)" } ?? "")) and no answer was given"
        }
    }
}

/// A blocking IntentBus client over a DEALER socket.
///
/// Threading: use one `IntentClient` from one thread at a time (it owns a ZeroMQ socket).
public final class IntentClient {
    public let endpoint: String
    private let context: ZMQContext
    private let socket: ZMQSocket
    private var counter = 0
    private let prefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    /// Extra time, beyond the request's own timeout, to wait for the host's final answer.
    public var hostSlack: Duration = .seconds(5)
    /// Asked while a request waits (at least every 100 ms, and at once when a signal
    /// interrupts the wait): true when the caller wants it cancelled (Ctrl-C in
    /// `intentbus send`). The client then sends CANCEL once and goes on waiting for the
    /// request's one final answer, which is `cancelled` unless the plugin's came first.
    public var cancellation: (() -> Bool)?
    /// The request a CANCEL has been sent for, so that it is sent once.
    private var cancelSentFor: String?
    /// The request `send` is waiting for, and its final answer when `requestEnded` saw it
    /// arrive while a prompt handler ran.
    private var current: String?
    private var stashedFinal: WireMessage?

    /// - Parameter curve: for a host that takes CURVE clients (a tcp frontend): this
    ///   client's key pair and the host's public key (docs/security.md).
    public init(endpoint: String, context: ZMQContext = ZMQContext(),
                curve: (keys: CurveKeyPair, serverKey: String)? = nil) throws(ZMQError) {
        self.endpoint = endpoint
        self.context = context
        socket = try ZMQSocket(context, .dealer)
        if let curve { try socket.makeCurveClient(curve.keys, serverKey: curve.serverKey) }
        // A DEALER with no connected peer (no host, a refused CURVE handshake) would block
        // on send: give up after 5 s instead, as noAnswer.
        try socket.setSendTimeout(milliseconds: 5_000)
        try socket.connect(endpoint)
    }

    /// Sends a host intent (`ib.*`) and returns the reply body.
    public func control(_ intent: String, _ body: JSON = .object([:]), wait: Duration = .seconds(5)) throws(ClientError) -> JSON {
        var options = RequestOptions()
        options.timeout = wait
        let reply = try send(intent, parameters: body, options: options) { _ in nil }
        return reply.body
    }

    /// Sends a request and blocks until its final answer.
    ///
    /// - Parameter onEvent: called for every PROGRESS and PROMPT. For a prompt, return the
    ///   ANSWER body (`{"value": …}`), or nil to give up (the request is cancelled and
    ///   `ClientError.unanswered` is thrown).
    /// - Parameter onResult: called for each RESULT (an intent's result that opened the
    ///   next one) as it arrives; the final reply lists them in `earlier` too.
    public func send(_ intent: String, parameters: JSON = .object([:]), options: RequestOptions = RequestOptions(),
                     onEvent: (ClientEvent) -> JSON?, onResult: ((IntentReply) -> Void)? = nil) throws(ClientError) -> IntentReply {
        counter += 1
        let requestId = "\(prefix)-\(counter)"
        current = requestId
        stashedFinal = nil
        defer { current = nil; stashedFinal = nil }
        let request = WireMessage(kind: .request, requestId: requestId, intent: intent,
                                  header: options.header, body: parameters)
        do {
            guard try socket.send(request.frames) else { throw ClientError.noAnswer(endpoint: endpoint, waited: .seconds(5)) }
        } catch let error as ZMQError { throw .transport(error) } catch { throw error as! ClientError }
        // The host answers every request, at the latest when the plugin's timeout runs out.
        let wait = (options.timeout ?? .seconds(60)) + hostSlack
        var earlier: [IntentReply] = []
        while true {
            let msg = try receive(requestId: requestId, intent: intent, wait: wait)
            switch msg.kind {
            case .reply, .result:
                let header = (try? msg.headerJSON()) ?? .object([:])
                let body: JSON
                do { body = try msg.bodyJSON() } catch {
                    throw .protocolViolation("\(msg.kind.rawValue) body is not JSON: \(error)")
                }
                var reply = IntentReply(status: header["status"]?.stringValue ?? "success",
                                        plugin: header["plugin"]?.stringValue, header: header, body: body)
                if msg.kind == .result {
                    // Not final: the opened intent's answer follows under the same id.
                    earlier.append(reply)
                    onResult?(reply)
                    continue
                }
                reply.earlier = earlier
                return reply
            case .error:
                throw .bus(BusError(json: (try? msg.bodyJSON()) ?? .object([:])))
            case .progress:
                _ = onEvent(.progress((try? msg.bodyJSON()) ?? .object([:])))
            case .prompt:
                let prompt = Prompt((try? msg.bodyJSON()) ?? .object([:]))
                let answer = onEvent(.prompt(prompt))
                if answer == nil, cancellation?() == true {
                    // Interrupted at the prompt: cancel and wait for the final answer.
                    sendCancel(requestId: requestId, intent: intent)
                    continue
                }
                guard let answer else {
                    // The request ended while the prompt was open: its final answer is next.
                    if stashedFinal != nil { continue }
                    let cancel = WireMessage(kind: .cancel, requestId: requestId, intent: intent, header: nil, body: nil)
                    _ = try? socket.send(cancel.frames)
                    _ = try? receive(requestId: requestId, wait: .seconds(2))
                    throw .unanswered(prompt)
                }
                let reply = WireMessage(kind: .answer, requestId: requestId, intent: intent, header: nil, body: answer)
                do { try socket.send(reply.frames) } catch { throw .transport(error) }
            case .refused:
                // Not final: a message of ours was not taken (an answer that came too
                // late, say); the request itself still ends with REPLY or ERROR.
                continue
            default:
                throw .protocolViolation("unexpected \(msg.kind.rawValue) from host")
            }
        }
    }

    /// Whether the request being sent has ended meanwhile: call it from a prompt handler
    /// (`onEvent`) while the person has not answered yet. The host may end a request
    /// while it waits for an answer (`conversation_expired`, `shutting_down`, a timeout);
    /// a handler that sees true should give up (return nil): `send` then ends with that
    /// final answer. Never blocks.
    public func requestEnded() -> Bool {
        guard let current else { return false }
        if stashedFinal != nil { return true }
        while let frames = try? socket.receive(dontWait: true) {
            guard let msg = try? WireMessage.decode(frames[...]), msg.requestId == current else { continue }
            if msg.kind == .reply || msg.kind == .error {
                stashedFinal = msg
                return true
            }
        }
        return false
    }

    /// Sends CANCEL for `requestId`, once.
    private func sendCancel(requestId: String, intent: String) {
        guard cancelSentFor != requestId else { return }
        cancelSentFor = requestId
        let cancel = WireMessage(kind: .cancel, requestId: requestId, intent: intent, header: nil, body: nil)
        _ = try? socket.send(cancel.frames)
    }

    /// Waits for the next message about `requestId`, skipping stale ones; sends CANCEL
    /// for it when `cancellation` asks.
    private func receive(requestId: String, intent: String = "", wait: Duration) throws(ClientError) -> WireMessage {
        if let final = stashedFinal, final.requestId == requestId {
            stashedFinal = nil
            return final
        }
        let deadline = MonotonicClock.deadline(after: wait)
        var poller = Poller([socket])
        while true {
            if let cancellation, cancelSentFor != requestId, cancellation() {
                sendCancel(requestId: requestId, intent: intent)
            }
            let now = MonotonicClock.now()
            if now >= deadline { throw .noAnswer(endpoint: endpoint, waited: wait) }
            var ms = Int(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
            if cancellation != nil { ms = min(ms, 100) }
            do {
                guard try poller.poll(timeoutMs: ms)[0], let frames = try socket.receive(dontWait: true) else { continue }
                let msg: WireMessage
                do { msg = try WireMessage.decode(frames[...]) } catch {
                    throw ClientError.protocolViolation("\(error)")
                }
                // An ERROR with an empty id answers a message the host could not parse.
                if msg.requestId == requestId || (msg.kind == .error && msg.requestId.isEmpty) { return msg }
            } catch let error as ZMQError {
                throw .transport(error)
            } catch let error as ClientError {
                throw error
            } catch {
                throw .protocolViolation("\(error)")
            }
        }
    }
}
