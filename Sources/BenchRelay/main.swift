import Foundation
import IntentBus

// The benchmark's baseline relay: a bare `zmq_proxy` between a ROUTER that clients
// connect to and a DEALER that the echo worker connects to. No logic at all, so it is
// the ceiling the host is measured against. Usage: bench-relay FRONTEND BACKEND.
// It runs until it is killed; the benchmark driver stops it by pid.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: bench-relay FRONTEND-ENDPOINT BACKEND-ENDPOINT\n".utf8))
    exit(64)
}
do {
    let context = ZMQContext()
    let frontend = try ZMQSocket(context, .router)
    let backend = try ZMQSocket(context, .dealer)
    // The same high-water marks as the host's sockets, so that neither path drops first.
    for socket in [frontend, backend] { try socket.setHighWaterMarks(send: 100_000, receive: 100_000) }
    try frontend.bind(arguments[1])
    try backend.bind(arguments[2])
    try ZMQProxy.run(frontend: frontend, backend: backend)
} catch {
    FileHandle.standardError.write(Data("bench-relay: \(error)\n".utf8))
    exit(2)
}
