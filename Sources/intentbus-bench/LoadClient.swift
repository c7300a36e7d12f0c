import Foundation
import IntentBus

/// What one measurement round saw, besides its timings.
struct ReplyCounts: Encodable {
    /// Requests sent.
    var sent = 0
    /// REPLY messages with the body intact.
    var ok = 0
    /// ERROR `busy` answers (the host refuses instead of dropping at its limits).
    var busy = 0
    /// Any other ERROR, or a REPLY whose body came back changed.
    var otherErrors = 0
    /// Requests that got no final answer before the round's timeout.
    var missing: Int { max(0, sent - ok - busy - otherErrors) }
    /// The first unexpected answer, for the report.
    var firstError: String?

    private enum CodingKeys: String, CodingKey { case sent, ok, busy, otherErrors, missing, firstError }

    /// Written out with `missing`, which the JSON reader should not have to work out.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sent, forKey: .sent)
        try c.encode(ok, forKey: .ok)
        try c.encode(busy, forKey: .busy)
        try c.encode(otherErrors, forKey: .otherErrors)
        try c.encode(missing, forKey: .missing)
        try c.encodeIfPresent(firstError, forKey: .firstError)
    }

    mutating func add(_ other: ReplyCounts) {
        sent += other.sent
        ok += other.ok
        busy += other.busy
        otherErrors += other.otherErrors
        if firstError == nil { firstError = other.firstError }
    }
}

/// The load generator: one DEALER socket to one path (the bare relay or the host),
/// speaking the IntentBus six-frame protocol. The same code drives both paths, so the only
/// difference between them is what sits in the middle.
///
/// Threading: owned by the thread that made it (the benchmark's main thread).
final class LoadClient {
    let endpoint: String
    private let socket: ZMQSocket
    /// Request ids are decimal numbers that only grow, so a late answer to an earlier
    /// round is recognised and ignored.
    private var nextId = 0
    /// How long a round waits for a missing answer before it counts it as missing.
    let replyTimeoutMs: Int32 = 3_000
    /// Sends and expects the packed form (docs/protocol.md §2.1), as CURVE clients do.
    private let packed: Bool

    init(context: ZMQContext, endpoint: String, curve: BenchCurve? = nil) throws {
        self.endpoint = endpoint
        packed = curve?.packed ?? false
        socket = try ZMQSocket(context, .dealer)
        if let curve { try socket.makeCurveClient(curve.client, serverKey: curve.server) }
        try socket.setHighWaterMarks(send: 100_000, receive: 100_000)
        try socket.setReceiveTimeout(milliseconds: replyTimeoutMs)
        try socket.connect(endpoint)
    }

    /// A body of exactly `size` bytes that is valid JSON, as a real request's would be:
    /// one string parameter named `key`.
    static func payload(size: Int, key: String = "p") -> Frame {
        let overhead = "{\"\(key)\":\"\"}".utf8.count
        let filler = String(repeating: "x", count: max(0, size - overhead))
        return Frame("{\"\(key)\":\"\(filler)\"}")
    }

    /// `expectedBodySize` for answers that are not an echo of the request: any successful
    /// REPLY counts.
    static let anyBody = -1

    private func send(intent: String, body: Frame) throws -> Int {
        nextId += 1
        let frames = [Frame(WireProtocol.signature), Frame(MessageKind.request.rawValue), Frame(String(nextId)),
                      Frame(intent), Frame(), body.copy()]  // zmq_msg_copy shares the bytes: no copy here
        if packed, let one = Frame.packing(frames[...]) {
            try socket.send([one])
        } else {
            try socket.send(frames)
        }
        return nextId
    }

    /// The outcome of one answer.
    private enum Answer {
        case ok(id: Int), busy(id: Int), failed(id: Int, why: String), other
    }

    /// Receives one message; nil when nothing arrived within the reply timeout.
    private func receive(expectedBodySize: Int) throws -> Answer? {
        guard var frames = try socket.receive() else { return nil }
        if frames.count == 1, frames[0].isPacked { frames = try frames[0].unpacked() }
        guard frames.count == WireProtocol.frameCount, let id = Int(frames[2].string) else {
            return .failed(id: -1, why: "a message of \(frames.count) frames that is not an IntentBus answer")
        }
        if frames[1].equals("REPLY") {
            if expectedBodySize == Self.anyBody {
                if frames[4].string.contains("\"status\":\"success\"") { return .ok(id: id) }
                return .failed(id: id, why: "REPLY with header \(frames[4].string) and body \(frames[5].string.prefix(200))")
            }
            if frames[5].count == expectedBodySize { return .ok(id: id) }
            return .failed(id: id, why: "REPLY body of \(frames[5].count) bytes, expected \(expectedBodySize)")
        }
        if frames[1].equals("ERROR") {
            let body = (try? JSON.parse(frames[5].data)) ?? .null
            if body["code"]?.stringValue == ErrorCode.busy.rawValue { return .busy(id: id) }
            return .failed(id: id, why: "ERROR \(body["code"]?.stringValue ?? "?"): \(body["message"]?.stringValue ?? "")")
        }
        return .other  // PROGRESS and the like: not final
    }

    /// One request in flight at a time: `count` requests or `seconds`, whichever ends
    /// first. Returns the round-trip time of each successful request, in nanoseconds.
    func latencyRound(intent: String, body: Frame, count: Int, seconds: Double,
                      echo: Bool = true) throws -> ([UInt64], ReplyCounts) {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        var counts = ReplyCounts()
        let size = echo ? body.count : Self.anyBody
        let stopAt = MonotonicClock.now() + UInt64(seconds * 1e9)
        while counts.sent < count && MonotonicClock.now() < stopAt {
            let start = MonotonicClock.now()
            let id = try send(intent: intent, body: body)
            counts.sent += 1
            waiting: while true {
                guard let answer = try receive(expectedBodySize: size) else {
                    return (samples, counts)  // timed out: counted as missing
                }
                switch answer {
                case .ok(let got) where got == id:
                    samples.append(MonotonicClock.now() - start)
                    counts.ok += 1
                    break waiting
                case .busy(let got) where got == id:
                    counts.busy += 1
                    break waiting
                case .failed(let got, let why) where got == id || got < 0:
                    counts.otherErrors += 1
                    if counts.firstError == nil { counts.firstError = why }
                    break waiting
                default:
                    continue  // a late answer from an earlier round
                }
            }
        }
        return (samples, counts)
    }

    /// Keeps `window` requests in flight: `count` requests or `seconds` of sending,
    /// whichever ends first, then waits for the answers still out. Every request is
    /// counted against its answer, so a drop would show up as `missing`.
    /// Returns the seconds from the first send to the last answer.
    func throughputRound(intent: String, body: Frame, window: Int, count: Int,
                         seconds: Double) throws -> (Double, ReplyCounts) {
        var counts = ReplyCounts()
        let size = body.count
        let start = MonotonicClock.now()
        let stopSendingAt = start + UInt64(seconds * 1e9)
        let firstId = nextId + 1
        var outstanding = 0
        var lastAnswer = start
        while outstanding < window && counts.sent < count {
            _ = try send(intent: intent, body: body)
            counts.sent += 1
            outstanding += 1
        }
        while outstanding > 0 {
            guard let answer = try receive(expectedBodySize: size) else { break }  // the rest are missing
            switch answer {
            case .ok(let id) where id >= firstId: counts.ok += 1
            case .busy(let id) where id >= firstId: counts.busy += 1
            case .failed(let id, let why) where id >= firstId || id < 0:
                counts.otherErrors += 1
                if counts.firstError == nil { counts.firstError = why }
            default: continue  // not final, or a late answer from an earlier round
            }
            outstanding -= 1
            lastAnswer = MonotonicClock.now()
            if counts.sent < count && lastAnswer < stopSendingAt {
                _ = try send(intent: intent, body: body)
                counts.sent += 1
                outstanding += 1
            }
        }
        return (Double(lastAnswer - start) / 1e9, counts)
    }

    /// Sends requests until one is answered with a REPLY, or `seconds` pass.
    func waitUntilAnswering(intent: String, seconds: Double) throws -> Bool {
        let stopAt = MonotonicClock.now() + UInt64(seconds * 1e9)
        let probe = Self.payload(size: 16)
        while MonotonicClock.now() < stopAt {
            let (samples, _) = try latencyRound(intent: intent, body: probe, count: 1, seconds: 1)
            if !samples.isEmpty { return true }
            usleep(20_000)
        }
        return false
    }
}
