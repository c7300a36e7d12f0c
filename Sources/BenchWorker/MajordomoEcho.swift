import Foundation
import IntentBus

/// `bench-worker --mdp ENDPOINT SERVICE`: a Majordomo (RFC 7) echo worker for the
/// benchmark's MDP scenario. It says READY for SERVICE, answers each REQUEST with a REPLY
/// that carries the request's body frame unchanged, and sends a HEARTBEAT each second
/// while idle (the host's default liveness is 3 × 2.5 s).
struct MajordomoEcho {
    let endpoint: String
    let service: String

    func run() throws -> Never {
        let context = ZMQContext()
        let socket = try ZMQSocket(context, .dealer)
        try socket.setHighWaterMarks(send: 100_000, receive: 100_000)
        try socket.setReceiveTimeout(milliseconds: 1_000)
        try socket.connect(endpoint)
        try socket.send([Frame(), Frame("MDPW01"), Frame(bytes: [1]), Frame(service)])
        var lastSent = MonotonicClock.now()
        while true {
            if let frames = try socket.receive(), frames.count >= 6, frames[1].equals("MDPW01"), frames[2].count == 1 {
                switch frames[2].withBytes({ $0[0] }) {
                case 2:  // REQUEST: client address, "", body
                    try socket.send([Frame(), Frame("MDPW01"), Frame(bytes: [3]), frames[3], Frame(), frames[5]])
                    lastSent = MonotonicClock.now()
                    continue
                case 5:  // DISCONNECT: the host is stopping (a long-lived worker would reconnect)
                    exit(3)
                default:
                    break
                }
            }
            if MonotonicClock.now() - lastSent > 1_000_000_000 {
                try socket.send([Frame(), Frame("MDPW01"), Frame(bytes: [4])])
                lastSent = MonotonicClock.now()
            }
        }
    }
}
