import Foundation
import IntentBus

// The baseline relay's echo worker: answers each IntentBus REQUEST with a REPLY that
// carries the request's body frame unchanged (moved, not copied), as the echo plugin does
// behind the host. It does the same small work as the plugin's raw path (decode the six
// frames, build a REPLY with a status header) so that the two paths differ only in what
// sits in the middle. Usage: bench-worker [--no-decode] BACKEND (the relay's DEALER side).
// With --no-decode it decodes nothing at all (RawEcho.swift): the baseline for the SDK's
// own cost.
// With --no-decode --plugin it is a plugin behind the host instead (endpoint, id and token
// from the environment the host gives every plugin).
// With --mdp ENDPOINT SERVICE it is a Majordomo echo worker instead (MajordomoEcho.swift).
var arguments = CommandLine.arguments
let environment = ProcessInfo.processInfo.environment
if arguments.count == 4 && arguments[1] == "--mdp" {
    do { try MajordomoEcho(endpoint: arguments[2], service: arguments[3]).run() } catch {
        FileHandle.standardError.write(Data("bench-worker: \(error)\n".utf8))
        exit(2)
    }
}
if arguments.count == 3 && arguments[1] == "--no-decode" && arguments[2] == "--plugin" {
    do {
        try RawEcho(endpoint: environment["INTENTBUS_BACKEND"] ?? "",
                    plugin: (environment["INTENTBUS_PLUGIN_ID"] ?? "", environment["INTENTBUS_TOKEN"] ?? "")).run()
    } catch {
        FileHandle.standardError.write(Data("bench-worker: \(error)\n".utf8))
        exit(2)
    }
}
let noDecode = arguments.count == 3 && arguments[1] == "--no-decode"
if noDecode { arguments.remove(at: 1) }
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: bench-worker [--no-decode] RELAY-BACKEND-ENDPOINT | --no-decode --plugin\n".utf8))
    exit(64)
}
if noDecode {
    do { try RawEcho(endpoint: arguments[1]).run() } catch {
        FileHandle.standardError.write(Data("bench-worker: \(error)\n".utf8))
        exit(2)
    }
}
do {
    let context = ZMQContext()
    let socket = try ZMQSocket(context, .dealer)
    try socket.setHighWaterMarks(send: 100_000, receive: 100_000)
    try socket.connect(arguments[1])
    let replyHeader = "{\"plugin\":\"relay\",\"status\":\"success\"}"
    while true {
        guard let frames = try socket.receive() else { continue }
        // The relay's ROUTER put the client's identity first; everything after it is the
        // client's message.
        guard frames.count > WireProtocol.frameCount else { continue }
        let envelopeCount = frames.count - WireProtocol.frameCount
        let request: WireMessage
        do { request = try WireMessage.decode(frames[envelopeCount...]) } catch {
            FileHandle.standardError.write(Data("bench-worker: bad message: \(error)\n".utf8))
            continue
        }
        // Exactly what the plugin runtime's raw path does: the request becomes the reply.
        request.kind = .reply
        request.header = Frame(replyHeader)
        try socket.send(request.frames(after: Array(frames[0..<envelopeCount])))
    }
} catch {
    FileHandle.standardError.write(Data("bench-worker: \(error)\n".utf8))
    exit(2)
}
