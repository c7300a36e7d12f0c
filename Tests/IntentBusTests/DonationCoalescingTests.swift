import Foundation
import Testing
import IntentBus
@testable import PluginHost
@testable import IntentBusStore
import IntentBusTestSupport

private let t0 = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30T08:00:00Z, a window's start

private func host(_ body: String, client: String? = "kim", intent: String = "StatusIntent", at: Date = t0) -> HostDonation {
    HostDonation(intent: intent, plugin: "balance", client: client, parameters: Data(body.utf8), at: at)
}

@Suite("Shortcuts: coalesced donations rank as the donations they stand for")
struct CoalescedRankingTests {
    @Test("a row of n donations scores and counts as n single donations at its time")
    func sameRanking() {
        func single(_ at: Date) -> Donation {
            Donation(intent: "StatusIntent", parameters: ["a": 1], plugin: "balance", client: nil, source: .host, at: at)
        }
        let ranker = SuggestionRanker(timeZone: TimeZone(identifier: "UTC")!)
        let now = t0 + 86_400 * 3
        let singles = Array(repeating: single(t0), count: 4) + [single(t0 - 86_400)]
        var row = single(t0)
        row.count = 4
        let each = ranker.rank(singles, now: now, limit: 1)
        let coalesced = ranker.rank([row, single(t0 - 86_400)], now: now, limit: 1)
        #expect(each.first?.count == 5 && coalesced.first?.count == 5)
        #expect(each.first?.score == coalesced.first?.score)
    }

    @Test("the writer coalesces a burst of the host's donations into one row, committed before work submitted after it")
    func writerBurst() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("CoalescedRankingTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let answer = LogBuffer()
        let done = DispatchSemaphore(value: 0)
        let writer = ShortcutWriter(store: try ShortcutStore(directory: dir), logger: Logger(label: "test", minimumLevel: .error)) { event in
            if case .extensionFinished(_, let result) = event, case .success(let body) = result {
                answer.append(Data(body.canonicalString.utf8))
                done.signal()
            }
        }
        defer { writer.stop() }
        for i in 0..<500 { writer.submit(.hostDonation(host(#"{"a":1}"#, at: t0 + Double(i) / 1000))) }
        writer.submit(.work(id: 1, run: { store in
            .success(.array(((try? store.donations()) ?? []).map { .int(Int64($0.count)) }))
        }))
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(answer.text == "[500]", "one row for the 500 (\(answer.text))")
    }
}
