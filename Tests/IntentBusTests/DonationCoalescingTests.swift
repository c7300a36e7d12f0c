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
    /// A Shortcuts writer on a store in a directory of its own (removed after), whose work
    /// jobs' answers `answer` collects, `done` signalled for each.
    private func withWriter(_ body: (ShortcutWriter, LogBuffer, DispatchSemaphore) throws -> Void) throws {
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
        try body(writer, answer, done)
    }

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
        try withWriter { writer, answer, done in
            for i in 0..<500 { writer.submit(.hostDonation(host(#"{"a":1}"#, at: t0 + Double(i) / 1000))) }
            writer.submit(.work(id: 1, run: { store in
                .success(.array(((try? store.donations()) ?? []).map { .int(Int64($0.count)) }))
            }))
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(answer.text == "[500]", "one row for the 500 (\(answer.text))")
        }
    }

    @Test("donations gathered on the router's side go over as one job, before any job submitted after them, and merge as single ones do")
    func gatheredBatch() throws {
        try withWriter { writer, answer, done in
            // Two bodies interleaved, one spelled two ways, another client, past the gathering limit.
            for i in 0..<(ShortcutWriter.maximumGathered + 44) {
                let body = i % 3 == 0 ? #"{"a":1}"# : i % 3 == 1 ? #"{ "a" : 1 }"# : #"{"b":2}"#
                Data(body.utf8).withUnsafeBytes {
                    writer.gather(intent: "StatusIntent", plugin: "balance", client: i % 10 == 0 ? "lee" : "kim", body: $0,
                                  at: t0 + Double(i) / 1000)
                }
            }
            // Not handed over yet: the work job goes after them all the same.
            writer.submit(.work(id: 1, run: { store in
                let rows: [String] = ((try? store.donations()) ?? []).map { d in
                    let client: String = d.client ?? "-"
                    return client + " " + d.parameters.canonicalString + " " + String(d.count)
                }
                return .success(.array(rows.sorted().map { JSON.string($0) }))
            }))
            #expect(done.wait(timeout: .now() + 10) == .success)
            // 300 donations: i % 10 == 0 (30) are lee's: 10 of each body kind.
            #expect(answer.text == #"["kim {\"a\":1} 180","kim {\"b\":2} 90","lee {\"a\":1} 20","lee {\"b\":2} 10"]"#, "\(answer.text)")
        }
    }

    @Test("a batch merges to the rows its donations one by one would make")
    func batchMergesAsSingles() {
        var donations: [HostDonation] = []
        for i in 0..<40 {
            let body: String = i % 4 == 1 ? #"{"a":2}"# : #"{"a":1}"#
            let client: String? = i % 5 == 0 ? nil : "kim"
            let intent: String = i % 7 == 0 ? "OtherIntent" : "StatusIntent"
            donations.append(host(body, client: client, intent: intent, at: t0 + Double(i) * 30))
        }
        func rows(_ merged: [DonationMerger.Merged]) -> [String] {
            merged.map { "\($0.key.intent) \($0.key.client ?? "-") \($0.key.window) \($0.key.parameters) \($0.count) \($0.at.timeIntervalSince1970)" }
        }
        var batch = HostDonationBatch()
        for d in donations.prefix(25) { d.parameters.withUnsafeBytes { batch.append(intent: d.intent, plugin: d.plugin, client: d.client, body: $0, at: d.at) } }
        batch.append(HostDonationBatch(Array(donations.dropFirst(25))))
        let expected = rows(DonationMerger.merge(donations))
        #expect(rows(DonationMerger.merge(batch)) == expected)
        #expect(expected.count > 4, "\(expected)")  // several windows, intents, clients
        // One by one, each merged alone and summed per row, gives the same counts.
        var single: [String: Int] = [:]
        for d in donations { for m in DonationMerger.merge([d]) { single["\(m.key)", default: 0] += m.count } }
        var batched: [String: Int] = [:]
        for m in DonationMerger.merge(batch) { batched["\(m.key)", default: 0] += m.count }
        #expect(single == batched)
    }
}
