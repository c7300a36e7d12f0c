import Foundation
import IntentBus
@testable import PluginHost

// Shared by the fuzz targets that drive the router core (router-admission, relay-lane):
// scripts/fuzz.sh compiles fuzz/shared/*.swift into every target that imports PluginHost.

/// Router effects for a fuzzed core: a clock moved by hand, spawns that only hand out pids
/// and tokens, and every message the core writes checked against docs/protocol.md
/// (`checkWritten`). `written(_:to:)` sees each checked message for a client.
class RecordingEffects: RouterEffects {
    var clock: UInt64 = 1_000_000_000
    var pid: pid_t = 100
    var tokens: [String: String] = [:]

    func now() -> UInt64 { clock }
    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        written(checkWritten(msg.frames), to: String(decoding: envelope.identity, as: UTF8.self))
    }
    func clientBacklog(_ identity: Data) -> Int { 0 }
    func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome {
        _ = checkWritten(frames)
        return .sent
    }
    func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError> {
        pid += 1
        tokens[spec.id] = token
        return .success(pid)
    }
    func signal(_ pid: pid_t, _ signal: Int32) {}
    /// The relay lane's forwards: sent on these sockets when a target has them (relay-lane).
    var rawSockets: (frontend: ZMQSocket, backend: ZMQSocket)?
    func forwardRaw(_ forward: borrowing RawForward, from m: RawMessage, store: MessageStore) -> SendStatus {
        guard let rawSockets else { return .failed(EHOSTUNREACH) }
        return forward.send(on: forward.side == .plugins ? rawSockets.backend : rawSockets.frontend, from: m, store: store)
    }
    var anyClientBacklog: Bool { false }

    /// A message written for `client`, already checked.
    func written(_ msg: WireMessage, to client: String) {}
}

/// What every message the host writes must be: it decodes, its request id is at most 255
/// bytes, its header is empty or a JSON object, and an ERROR or REFUSED body is an object
/// with a string code. Stops the fuzzer otherwise.
func checkWritten(_ frames: [Frame]) -> WireMessage {
    guard let msg = try? WireMessage.decode(frames[...]) else { fatalError("an undecodable message was written") }
    precondition(msg.requestId.utf8.count <= 255, "a request id over 255 bytes was written")
    if msg.header.count > 0 {
        guard case .object? = try? msg.headerJSON() else { fatalError("a header that is not a JSON object was written") }
    }
    if msg.kind == .error || msg.kind == .refused {
        guard let body = try? msg.bodyJSON(), body["code"]?.stringValue != nil else {
            fatalError("an \(msg.kind.rawValue) without a string code was written")
        }
    }
    return msg
}
