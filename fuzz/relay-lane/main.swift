import Foundation
import IntentBus
@testable import PluginHost

// libFuzzer target: the relay lane (docs/design.md, "The relay lane") in front of the
// router core, as the host's shell runs them: messages travel over real inproc sockets
// (clients c0…c7 and plugin "a" are DEALERs), each received message goes to the lane
// first and to the core when the lane does not take it. The core's own sends are recorded
// and checked; what the lane sends is read back from the DEALERs and checked too. The
// plugin answers some of the REQUESTs it gets with a REPLY, so the lane's reply path and
// its promotions run; the clock moves 50 ms per input, so deadlines fire. Whatever comes
// in: no crash, every message written follows docs/protocol.md, limits hold, no plugin's
// in-flight count goes below zero, and a request never gets two finals.
//
// Plugin "a" has the packed link (docs/protocol.md §5.1): the host sends it packed frames,
// and it answers packed or in six frames.
// A second plugin, "b", serves the legacy intent L one trip at a time (HELLO phase `run`,
// a definition): its `run` requests take the lane's legacy check, and its REPLYs the lane's
// reading of a run REPLY (Legacy/LegacyRunScan.swift) and the parse behind it.
//
// Input: a sequence of messages, each `[side] [frame count] ([length] [bytes])…`: side's
// high bit sends from a plugin (b when bit 0x40 is set too, else a), else from client
// c(side & 7); a side of 0xFF ends the messages. Then one byte per REQUEST a plugin
// received: an odd byte answers it with a REPLY (plugin a's packed when the byte has 0x02). Plugin b answers a `run` with the REPLY a run that went all the way gets, made from
// the REQUEST's body as the Swift SDK writes it; when the byte has 0x02, the next two bytes
// change one byte of it (position, value), and with 0x04 the next byte cuts it short.

/// The core's effects, each message checked (fuzz/shared/RecordingEffects.swift), and the
/// finals per (client, request id), to catch a second one.
final class Recorder: RecordingEffects {
    var finals: Set<String> = []

    override func written(_ msg: WireMessage, to client: String) {
        // A REQUEST refused before it began gets an ERROR under its id, and the id may be
        // used again after that: finals are forgotten when the id is reused (below).
        guard msg.kind.isFinal, !msg.requestId.isEmpty else { return }
        let key = client + "\u{0}" + msg.requestId
        precondition(!finals.contains(key), "two finals for \(msg.requestId)")
        finals.insert(key)
    }
}

/// Plugin b's definition, in a file of this process's own (removed at exit).
let definitionPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("intentbus-fuzz-relay-lane-\(getpid()).yaml").path
let definitionText = """
intents:
  - name: L
    parameters:
      - {name: text, type: String}
      - {name: count, type: Integer, minimum: 1, maximum: 10}
      - {name: flag, type: Boolean}
    response:
      parameters:
        - {name: text, type: String}
      codes:
        - {name: done, success: true, formatString: "Done: ${text}"}
"""

let manifestText = """
host:
  state_dir: /nonexistent-intentbus-fuzz/state
  conversation_timeout: 1s
  limits:
    max_open_exchanges: 300
    max_open_per_client: 60
plugins:
  - id: a
    exec: /bin/true
    IntentsSupported: [I, K]
    timeout: 2s
    max_in_flight: 200
  - id: b
    exec: /bin/true
    IntentsSupported: [L]
    definitions: [\(definitionPath)]
    timeout: 2s
"""

let recorder = Recorder()

/// The sockets, the core and the lane, made once: routers bound, DEALERs connected over inproc.
final class Rig {
    let context = ZMQContext()
    let frontend: ZMQSocket
    let backend: ZMQSocket
    let clients: [ZMQSocket]
    let plugin: ZMQSocket
    let legacyPlugin: ZMQSocket
    let raw = RawMessage(capacity: 8)
    let core: RouterCore
    var lane: RelayLane { core.relayLane! }

    init() {
        frontend = try! ZMQSocket(context, .router)
        backend = try! ZMQSocket(context, .router)
        try! frontend.bind("inproc://fuzz-front")
        try! backend.bind("inproc://fuzz-back")
        try! backend.setRouterMandatory()
        try! frontend.setRouterMandatory()
        clients = (0..<8).map { [context] i in
            let s = try! ZMQSocket(context, .dealer)
            try! s.setIdentity("c\(i)")
            try! s.connect("inproc://fuzz-front")
            return s
        }
        plugin = try! ZMQSocket(context, .dealer)
        try! plugin.setIdentity("a")
        try! plugin.connect("inproc://fuzz-back")
        legacyPlugin = try! ZMQSocket(context, .dealer)
        try! legacyPlugin.setIdentity("b")
        try! legacyPlugin.connect("inproc://fuzz-back")
        try! definitionText.write(toFile: definitionPath, atomically: true, encoding: .utf8)
        atexit { unlink(definitionPath) }
        let manifest = try! ManifestLoader.load(text: manifestText, path: "/nonexistent-intentbus-fuzz/plugins.yaml")
        let logger = Logger(label: "fuzz", minimumLevel: .error) { _ in }
        core = RouterCore(manifest: manifest, logger: logger, effects: recorder, post: { _ in })
        // The legacy flow and its lane check over b's definition, as the host installs them.
        let hooks = IntentRouterHooks(view: core)
        LegacyHandlers.install(try! LegacyHandlers.loadDefinitions(manifest, logger: logger), into: hooks)
        hooks.extensions.forEach(core.install)
        core.start()
        let hello: JSON = ["protocol": 1, "plugin": "a", "token": .string(recorder.tokens["a"] ?? ""),
                           "intents": ["I", "K"], "packed": true]  // the packed link (protocol §5.1)
        core.pluginFrames([Frame("a")] + WireMessage(kind: .hello, header: nil, body: hello).frames)
        let legacyHello: JSON = ["protocol": 1, "plugin": "b", "token": .string(recorder.tokens["b"] ?? ""),
                                 "intents": [["name": "L", "style": "legacy", "codes": ["done"], "phases": ["run"]]]]
        core.pluginFrames([Frame("b")] + WireMessage(kind: .hello, header: nil, body: legacyHello).frames)
        recorder.rawSockets = (frontend, backend)
        core.enableRelayLane()
    }
}

let rig = Rig()

/// What the shell does with each waiting message: the core's one entry.
func drainRouters() {
    let (raw, core, frontend, backend) = (rig.raw, rig.core, rig.frontend, rig.backend)
    for _ in 0..<10_000 {
        var any = false
        if (try? raw.receive(from: frontend)) == true {
            any = true
            core.receive(.clients, raw)
        }
        if (try? raw.receive(from: backend)) == true {
            any = true
            // As the shell does (RouterShell.unpackPluginMessage): a packed one split, a malformed one dropped.
            if (try? raw.unpack()) != nil { core.receive(.plugins, raw) }
        }
        if !any { return }
    }
}

/// Plugin b's REPLY to a `run` that went all the way, as the Swift SDK writes it: each
/// parameter resolved to what the REQUEST's body gives it (null when it gives nothing),
/// confirm not implemented, handle `done` with the text (`LegacyRunReply.canonicalBody`).
func runReply(_ msg: WireMessage) -> [UInt8] {
    let given = (try? msg.bodyJSON())?.objectValue ?? [:]
    var resolutions: [String: JSON] = [:]
    for name in ["count", "flag", "text"] { resolutions[name] = ["result": "success", "value": given[name] ?? .null] }
    let reply: JSON = ["confirm": ["implemented": false], "resolutions": .object(resolutions),
                       "handle": ["code": "done", "response": ["text": given["text"] ?? "T"]]]
    return reply.canonicalBytes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRelayLane(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    let (plugin, legacyPlugin, clients, lane, core) = (rig.plugin, rig.legacyPlugin, rig.clients, rig.lane, rig.core)
    var i = 0
    func next() -> UInt8? {
        guard i < bytes.count else { return nil }
        defer { i += 1 }
        return bytes[i]
    }
    var messages = 0
    while messages < 32, let side = next(), side != 0xFF, let frameCount = next() {
        messages += 1
        var frames: [Frame] = []
        for _ in 0..<Int(frameCount % 9) {
            let length = Int(next() ?? 0)
            let end = min(bytes.count, i + length)
            frames.append(Frame(bytes: bytes[i..<end]))
            i = end
        }
        guard !frames.isEmpty else { continue }
        let from = side & 0x80 == 0 ? clients[Int(side & 7)] : side & 0x40 != 0 ? legacyPlugin : plugin
        // A new REQUEST under an id may be final-answered again once the first ended. The
        // host reads kind and id after an empty first frame as a REQ peer's delimiter.
        let off = frames.count > 1 && frames[0].count == 0 ? 1 : 0
        if side & 0x80 == 0, frames.count > off + 2, frames[off + 1].equals("REQUEST") {
            recorder.finals.remove("c\(side & 7)\u{0}" + frames[off + 2].string)
        }
        _ = try? from.send(frames, dontWait: true)
        drainRouters()
    }
    // The plugins answer what the lane or the core sent them.
    // Plugin a has the packed link: what the host sends it must be a well-formed packed
    // frame or six frames; it answers in either form, as the input says.
    while let received = try? plugin.receive(dontWait: true) {
        let packed = received.count == 1 && received[0].isPacked
        guard let frames = packed ? try? received[0].unpacked() : received else { fatalError("the host sent plugin a a malformed packed frame") }
        guard let msg = try? WireMessage.decode(frames[...]) else { fatalError("the plugin got an undecodable message") }
        if msg.kind == .request, let b = next(), b & 1 == 1 {
            let reply = WireMessage(kind: .reply, requestId: msg.requestId, intent: msg.intent, header: nil, body: ["ok": true]).frames
            _ = try? plugin.send(b & 2 != 0 ? [Frame.packing(reply[...]) ?? Frame()] : reply, dontWait: true)
        }
    }
    while let frames = try? legacyPlugin.receive(dontWait: true) {
        guard let msg = try? WireMessage.decode(frames[...]) else { fatalError("plugin b got an undecodable message") }
        guard msg.kind == .request, let b = next(), b & 1 == 1 else { continue }
        var body = runReply(msg)
        if b & 2 != 0, !body.isEmpty, let at = next(), let value = next() { body[Int(at) % body.count] = value }
        if b & 4 != 0, let cut = next() { body.removeLast(min(body.count, Int(cut))) }
        var reply = WireMessage(kind: .reply, requestId: msg.requestId, intent: msg.intent, header: nil, body: [:]).frames
        reply[reply.count - 1] = Frame(bytes: body)
        _ = try? legacyPlugin.send(reply, dontWait: true)
    }
    drainRouters()
    // What the lane sent to clients.
    for (n, client) in clients.enumerated() {
        while let frames = try? client.receive(dontWait: true) { recorder.written(checkWritten(frames), to: "c\(n)") }
    }
    recorder.clock += 50_000_000
    core.promoteDue()
    core.fireDueTimers()
    precondition(lane.count + core.book.count <= 300, "open requests beyond max_open_exchanges")
    precondition(core.slots[0].inFlight >= 0, "a negative in-flight count")
    return 0
}
