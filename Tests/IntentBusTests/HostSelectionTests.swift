import Foundation
import IntentBus
import Testing

/// Which host a client with several endpoints sends a new request to (HostSelection).
@Suite("Host selection")
struct HostSelectionTests {
    let second: UInt64 = 1_000_000_000

    @Test("least recently failed: the first host that never failed, else the one that failed longest ago")
    func leastRecentlyFailed() {
        let pick = HostSelection.leastRecentlyFailed
        #expect(pick.pick(failures: [nil, nil, nil], excluded: [], turn: 7, now: 100 * second) == 0)
        #expect(pick.pick(failures: [90 * second, nil, nil], excluded: [], turn: 0, now: 100 * second) == 1)
        #expect(pick.pick(failures: [90 * second, 80 * second, 95 * second], excluded: [], turn: 0, now: 100 * second) == 1)
        #expect(pick.pick(failures: [90 * second, 80 * second, 95 * second], excluded: [1], turn: 0, now: 100 * second) == 0)
        #expect(pick.pick(failures: [nil, nil], excluded: [0, 1], turn: 0, now: 0) == nil)
    }

    @Test("round robin: each request to the next host, passing over one that failed within the penalty")
    func roundRobin() {
        let pick = HostSelection.roundRobin(penalty: .seconds(5))
        let healthy: [UInt64?] = [nil, nil, nil]
        #expect((0..<6).map { pick.pick(failures: healthy, excluded: [], turn: $0, now: 100 * second) } == [0, 1, 2, 0, 1, 2])
        // Host 1 failed 2 s ago: its turns go to the next host.
        let recent: [UInt64?] = [nil, 98 * second, nil]
        #expect((0..<3).map { pick.pick(failures: recent, excluded: [], turn: $0, now: 100 * second) } == [0, 2, 2])
        // Its failure is 5 s old: it has its turn again.
        #expect(pick.pick(failures: recent, excluded: [], turn: 1, now: 103 * second - 1) == 2)
        #expect(pick.pick(failures: recent, excluded: [], turn: 1, now: 103 * second) == 1)
        // Every host failed recently: the one that failed longest ago.
        let all: [UInt64?] = [99 * second, 97 * second, 98 * second]
        #expect(pick.pick(failures: all, excluded: [], turn: 0, now: 100 * second) == 1)
        #expect(pick.pick(failures: all, excluded: [1], turn: 0, now: 100 * second) == 2)
    }
}
