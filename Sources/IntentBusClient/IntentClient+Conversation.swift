import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

extension IntentClient {
    /// One request's messages with one host, from the REQUEST sent to its final answer.
    /// Throws `.hostLost` when that host goes; `send` decides what happens next.
    func converse(_ link: HostLink, requestId: String, intent: String, wait: Duration, conversation: inout Conversation,
                  onEvent: (ClientEvent) -> JSON?, onResult: ((IntentReply) -> Void)?) throws(ClientError) -> IntentReply {
        while true {
            let msg = try receive(link, requestId: requestId, intent: intent, wait: wait)
            switch msg.kind {
            case .reply, .result:
                let header = (try? msg.headerJSON()) ?? .object([:])
                let body: JSON
                do { body = try msg.bodyJSON() } catch {
                    throw .protocolViolation("\(msg.kind.rawValue) body is not JSON: \(error)")
                }
                var reply = IntentReply(status: header[.status]?.stringValue ?? "success",
                                        plugin: header[.plugin]?.stringValue, header: header, body: body)
                if msg.kind == .result {
                    // Not final: the opened intent's answer follows under the same id.
                    conversation.earlier.append(reply)
                    onResult?(reply)
                    continue
                }
                reply.earlier = conversation.earlier
                return reply
            case .error:
                throw .bus(BusError(json: (try? msg.bodyJSON()) ?? .object([:])))
            case .progress:
                _ = onEvent(.progress((try? msg.bodyJSON()) ?? .object([:])))
            case .prompt:
                conversation.prompted = true
                let prompt = Prompt((try? msg.bodyJSON()) ?? .object([:]))
                let answer = onEvent(.prompt(prompt))
                if answer == nil, cancellation?() == true {
                    // Interrupted at the prompt: cancel and wait for the final answer.
                    sendCancel(link, requestId: requestId, intent: intent)
                    continue
                }
                guard let answer else {
                    // The request ended while the prompt was open: its final answer is next.
                    if stashedFinal != nil { continue }
                    let cancel = WireMessage(kind: .cancel, requestId: requestId, intent: intent, header: nil, body: nil)
                    _ = try? link.send(cancel.frames, dontWait: true)
                    _ = try? receive(link, requestId: requestId, wait: .seconds(2))
                    throw .unanswered(prompt)
                }
                let reply = WireMessage(kind: .answer, requestId: requestId, intent: intent, header: nil, body: answer)
                do { try link.send(reply.frames, dontWait: false) } catch { throw .transport(error) }
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
        let link = links[active]
        while let frames = try? link.socket.receive(dontWait: true) {
            guard let msg = try? link.decode(frames), msg.requestId == current else { continue }
            if msg.kind == .reply || msg.kind == .error {
                stashedFinal = msg
                return true
            }
        }
        return false
    }

    /// Sends CANCEL for `requestId`, once.
    private func sendCancel(_ link: HostLink, requestId: String, intent: String) {
        guard cancelSentFor != requestId else { return }
        cancelSentFor = requestId
        let cancel = WireMessage(kind: .cancel, requestId: requestId, intent: intent, header: nil, body: nil)
        _ = try? link.send(cancel.frames, dontWait: true)
    }

    /// Waits for the next message about `requestId` from `link`'s host, skipping stale
    /// ones; sends CANCEL for it when `cancellation` asks, and the host a HEARTBEAT every
    /// `heartbeat`. Throws `.hostLost` when the connection drops or the host stays silent
    /// for `heartbeat × heartbeatLiveness`.
    func receive(_ link: HostLink, requestId: String, intent: String = "", wait: Duration) throws(ClientError) -> WireMessage {
        if let final = stashedFinal, final.requestId == requestId {
            stashedFinal = nil
            return final
        }
        let deadline = MonotonicClock.deadline(after: wait)
        let beat = max(heartbeat.nanoseconds, 1_000_000)
        let silence = beat * UInt64(max(heartbeatLiveness, 2))
        var heard = MonotonicClock.now()
        var lastBeat = heard
        var poller = Poller(link.pollSockets)
        while true {
            if let cancellation, cancelSentFor != requestId, cancellation() {
                sendCancel(link, requestId: requestId, intent: intent)
            }
            let now = MonotonicClock.now()
            if now >= deadline { throw .noAnswer(endpoint: link.endpoint, waited: wait) }
            if link.connectionDropped() {
                // A host that stops sends its last answers before it closes: read them first.
                if let msg = try pending(link, requestId: requestId) { return msg }
                throw .hostLost(endpoint: link.endpoint, requestId: requestId, why: "its connection dropped")
            }
            if now - heard >= silence {
                throw .hostLost(endpoint: link.endpoint, requestId: requestId,
                                why: "it sent nothing, heartbeats included, for \(Duration.nanoseconds(Int64(now - heard)).humanText)")
            }
            if now - lastBeat >= beat {
                // Dropped, not waited for, when the host's queue is full: silence then tells.
                _ = try? link.send(WireMessage(kind: .heartbeat, header: nil, body: nil).frames, dontWait: true)
                lastBeat = now
            }
            let untilBeat = lastBeat + beat - min(now, lastBeat + beat)
            var ms = Int(min(min(deadline - now, untilBeat) / 1_000_000 + 1, UInt64(Int32.max)))
            if cancellation != nil { ms = min(ms, 100) }
            do { try poller.wait(timeoutMs: ms) } catch { throw .transport(error) }
            guard poller.isReady(0) else { continue }
            heard = MonotonicClock.now()
            if let msg = try pending(link, requestId: requestId) { return msg }
        }
    }

    /// The first message waiting on `link` that is about `requestId` (skipping the rest,
    /// heartbeats included), without blocking; nil when none is.
    private func pending(_ link: HostLink, requestId: String) throws(ClientError) -> WireMessage? {
        while true {
            let frames: [Frame]?
            do { frames = try link.socket.receive(dontWait: true) } catch { throw .transport(error) }
            guard let frames else { return nil }
            let msg: WireMessage
            do { msg = try link.decode(frames) } catch { throw .protocolViolation("\(error)") }
            // An ERROR with an empty id answers a message the host could not parse.
            if msg.requestId == requestId || (msg.kind == .error && msg.requestId.isEmpty) { return msg }
        }
    }
}
