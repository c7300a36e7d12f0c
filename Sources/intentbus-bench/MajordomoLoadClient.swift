import Foundation
import IntentBus

/// A Majordomo (MDP/0.1, RFC 7) client for the benchmark: a DEALER socket that writes the
/// empty frame itself, one request in flight (MDP replies carry no request id). Measures
/// round trips like `LoadClient.latencyRound`, so the two protocols are timed the same way.
///
/// Threading: owned by the thread that made it (the benchmark's main thread).
final class MajordomoLoadClient {
    let endpoint: String
    private let socket: ZMQSocket

    init(context: ZMQContext, endpoint: String) throws {
        self.endpoint = endpoint
        socket = try ZMQSocket(context, .dealer)
        try socket.setReceiveTimeout(milliseconds: 3_000)
        try socket.connect(endpoint)
    }

    /// `count` requests one after the other, or `seconds`; the round-trip time of each
    /// successful reply (the echoed body), in nanoseconds.
    func latencyRound(service: String, body: Frame, count: Int, seconds: Double) throws -> ([UInt64], ReplyCounts) {
        var samples: [UInt64] = []
        var counts = ReplyCounts()
        let expected = body.string
        let stopAt = MonotonicClock.now() + UInt64(seconds * 1e9)
        while counts.sent < count && MonotonicClock.now() < stopAt {
            let start = MonotonicClock.now()
            try socket.send([Frame(), Frame("MDPC01"), Frame(service), body.copy()])
            counts.sent += 1
            guard let frames = try socket.receive() else { return (samples, counts) }  // missing
            guard frames.count == 4, frames[1].equals("MDPC01"), frames[2].string == service else {
                counts.otherErrors += 1
                if counts.firstError == nil { counts.firstError = "not an MDPC01 reply (\(frames.count) frames)" }
                continue
            }
            // The default reply form (docs/mdp.md, `mdp_reply: body`) is the handler's bytes
            // as they are: an echo answers with the request's body; an error is one JSON frame.
            let reply = frames[3].string
            if reply == expected {
                samples.append(MonotonicClock.now() - start)
                counts.ok += 1
            } else if reply.contains("\"code\":\"busy\"") {
                counts.busy += 1
            } else {
                counts.otherErrors += 1
                if counts.firstError == nil { counts.firstError = String(reply.prefix(200)) }
            }
        }
        return (samples, counts)
    }

    /// Sends requests until one succeeds, or `seconds` pass.
    func waitUntilAnswering(service: String, seconds: Double) throws -> Bool {
        let stopAt = MonotonicClock.now() + UInt64(seconds * 1e9)
        while MonotonicClock.now() < stopAt {
            if try !latencyRound(service: service, body: LoadClient.payload(size: 16), count: 1, seconds: 1).0.isEmpty { return true }
            usleep(20_000)
        }
        return false
    }
}
