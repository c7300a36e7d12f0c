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

/// The core's effects, each message it writes checked (fuzz/shared/RecordingEffects.swift).
final class Recorder: RecordingEffects {}

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
    precondition(core.book.count <= 500, "open exchanges beyond max_open_exchanges")
    return 0
}
