internal import CZeroMQ
import Foundation
import IntentBus

/// Keeps `window` requests in flight over `connections`, spread evenly (the first ones
/// take the remainder): `count` requests or `seconds` of sending, whichever ends first,
/// then waits for the answers still out, at most `replyTimeoutMs` after the last one.
/// An answer is followed by the next request on the same connection.
struct LoadRound {
    let connections: [LeanConnection]
    let body: LoadBody
    let window: Int
    let count: Int
    let seconds: Double
    /// The REPLY body size that counts as intact, or -1 for any REPLY.
    let expectedBodySize: Int
    var replyTimeoutMs: Int32 = 3_000

    /// Per connection: the first id of this round and the send time of each id in flight.
    private final class Lane {
        let connection: LeanConnection
        let firstId: UInt64
        var outstanding = 0
        var sendTimes: [UInt64]
        let mask: UInt64

        init(_ connection: LeanConnection, share: Int) {
            self.connection = connection
            firstId = connection.nextId
            var size = 64
            while size < share * 4 { size *= 2 }
            sendTimes = Array(repeating: 0, count: size)
            mask = UInt64(size - 1)
        }
    }

    func run() throws -> LoadRoundResult {
        var result = LoadRoundResult()
        result.samples.reserveCapacity(min(count, 2_000_000))
        let n = connections.count
        let lanes = connections.indices.map { i in
            Lane(connections[i], share: window / n + (i < window % n ? 1 : 0))
        }
        let cpuStart = Self.cpuNow()
        let start = MonotonicClock.now()
        let stopSendingAt = start + UInt64(seconds * 1e9)
        var outstanding = 0
        func send(_ lane: Lane) throws {
            let id = try lane.connection.send(body: body)
            lane.sendTimes[Int(id & lane.mask)] = MonotonicClock.now()
            lane.outstanding += 1
            outstanding += 1
            result.sent += 1
        }
        for (i, lane) in lanes.enumerated() {
            for _ in 0..<(window / n + (i < window % n ? 1 : 0)) where result.sent < count { try send(lane) }
        }
        var lastAnswer = start
        /// Handles one answer on `lane`; false when it was not one of this round's.
        func take(_ answer: LeanConnection.Answer, on lane: Lane) throws {
            let now = MonotonicClock.now()
            switch answer {
            case .ok(let id) where id >= lane.firstId && id < lane.connection.nextId:
                result.ok += 1
                result.samples.append(UInt32(min(now &- lane.sendTimes[Int(id & lane.mask)], UInt64(UInt32.max))))
            case .busy(let id) where id >= lane.firstId && id < lane.connection.nextId:
                result.busy += 1
            case .failed(let id, let why) where id == 0 || (id >= lane.firstId && id < lane.connection.nextId):
                result.otherErrors += 1
                if result.firstError == nil { result.firstError = why }
            default:
                return  // not final, or a late answer to an earlier round
            }
            lane.outstanding -= 1
            outstanding -= 1
            lastAnswer = now
            if result.sent < count && now < stopSendingAt { try send(lane) }
        }
        if n == 1 {
            let lane = lanes[0]
            lane.connection.setReceiveTimeout(milliseconds: replyTimeoutMs)
            while outstanding > 0 {
                guard let answer = try lane.connection.receive(expectedBodySize: expectedBodySize, wait: true) else { break }
                try take(answer, on: lane)
            }
        } else {
            var items = lanes.map { zmq_pollitem_t(socket: $0.connection.pollHandle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0) }
            while outstanding > 0 {
                let rc = items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, Int32(n), Int(replyTimeoutMs)) }
                if rc < 0 {
                    if zmq_errno() == EINTR { continue }
                    throw LoadFailure("zmq_poll: \(zmq_errno())")
                }
                if rc == 0 { break }  // nothing for the reply timeout: the rest are missing
                for i in 0..<n where items[i].revents & Int16(ZMQ_POLLIN) != 0 {
                    while let answer = try lanes[i].connection.receive(expectedBodySize: expectedBodySize, wait: false) {
                        try take(answer, on: lanes[i])
                    }
                }
            }
        }
        result.elapsedNs = lastAnswer - start
        result.cpuNs = Self.cpuNow() - cpuStart
        return result
    }

    /// This process's user + system CPU time so far, every thread.
    static func cpuNow() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }
}
