import Foundation
import IntentBus
@testable import PluginHost

// libFuzzer target: one message at a time through the router core's admission, from a
// client or from a plugin (docs/reliability.md). The core runs with recorded effects and
// a clock that moves 50 ms per input, so deadlines, expiries and heartbeats fire too.
// Whatever comes in, the core must not crash, must stay within host.limits, and every
// message it writes must follow docs/protocol.md: it decodes, its request id is at most
// 255 bytes, its header is empty or a JSON object, and an ERROR or REFUSED body is an
// object with a string code.
//
// Input: a sequence of messages, each `[side] [frame count] ([length] [bytes])…`: side's
// high bit picks the backend (plugin "a" or "b") over the frontend (clients c0…c7).

final class Recorder: RouterEffects {
    var clock: UInt64 = 1_000_000_000
    var pid: pid_t = 100
    var tokens: [String: String] = [:]
    func now() -> UInt64 { clock }
    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) { check(msg.frames) }
    func clientBacklog(_ identity: Data) -> Int { 0 }
    func sendToPlugin(_ identity: Data, _ frames: [Frame]) -> PluginSendOutcome { check(frames); return .sent }
    func spawn(_ spec: PluginSpec, index: Int, token: String) -> Result<pid_t, SpawnError> {
        pid += 1
        tokens[spec.id] = token
        return .success(pid)
    }
    func signal(_ pid: pid_t, _ signal: Int32) {}

    func check(_ frames: [Frame]) {
        guard let msg = try? WireMessage.decode(frames[...]) else { fatalError("the core wrote an undecodable message") }
        precondition(msg.requestId.utf8.count <= 255, "the core wrote a request id over 255 bytes")
        if msg.header.count > 0 {
            guard case .object? = try? msg.headerJSON() else { fatalError("the core wrote a header that is not a JSON object") }
        }
        if msg.kind == .error || msg.kind == .refused {
            guard let body = try? msg.bodyJSON(), body["code"]?.stringValue != nil else {
                fatalError("the core wrote an \(msg.kind.rawValue) without a string code")
            }
        }
    }
}

let manifestText = """
host:
  state_dir: /nonexistent-intentbus-fuzz/state
  conversation_timeout: 1s
  limits:
    max_open_exchanges: 500
    max_open_per_client: 100
plugins:
  - id: a
    exec: /bin/true
    IntentsSupported: [I, Shared]
    timeout: 2s
  - id: b
    exec: /bin/true
    IntentsSupported: [J, Shared]
    timeout: 1s
"""

let recorder = Recorder()
let core: RouterCore = {
    let manifest = try! ManifestLoader.load(text: manifestText, path: "/nonexistent-intentbus-fuzz/plugins.yaml")
    let core = RouterCore(manifest: manifest, logger: Logger(label: "fuzz", minimumLevel: .error) { _ in },
                          effects: recorder, post: { _ in })
    core.start()
    for (id, intents) in [("a", ["I", "Shared"]), ("b", ["J", "Shared"])] {
        let hello: JSON = ["protocol": 1, "plugin": .string(id), "token": .string(recorder.tokens[id] ?? ""),
                           "intents": .array(intents.map { .string($0) })]
        core.pluginFrames([Frame(id)] + WireMessage(kind: .hello, header: nil, body: hello).frames)
    }
    return core
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouterAdmission(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    var i = 0
    func next() -> UInt8? {
        guard i < bytes.count else { return nil }
        defer { i += 1 }
        return bytes[i]
    }
    while let side = next(), let frameCount = next() {
        let plugin = side & 0x80 != 0
        var frames = [Frame(plugin ? (side & 1 == 0 ? "a" : "b") : "c\(side & 7)")]
        for _ in 0..<Int(frameCount % 9) {
            let length = Int(next() ?? 0)
            let end = min(bytes.count, i + length)
            frames.append(Frame(bytes: bytes[i..<end]))
            i = end
        }
        if plugin { core.pluginFrames(frames) } else { core.clientFrames(frames) }
    }
    recorder.clock += 50_000_000
    core.fireDueTimers()
    precondition(core.exchanges.count <= 500, "open exchanges beyond max_open_exchanges")
    return 0
}
