import Foundation
@testable import PluginHost
import Testing

/// The "… more were dropped since the last report (N in all)" counts for a client that
/// does not read (issue 24 item 6: they started over with every new backlog, so each drop
/// read "(1 in all)"; docs/reliability.md, "Memory").
@Suite("Dropped-answer counts")
struct ClientBacklogDropsTests {
    @Test("the first drop is reported at once, then at most once a second, with the drops since and in all")
    func counts() {
        var backlogs = ClientBacklogs()
        let client = Data("client-a".utf8)
        let second: UInt64 = 1_000_000_000
        let start: UInt64 = 5 * second
        let first = backlogs.dropped(client, now: start)
        #expect(first?.sinceReport == 1 && first?.total == 1)
        // 9 more within the second: counted, not reported.
        for i in 1...9 { #expect(backlogs.dropped(client, now: start + UInt64(i) * 1_000_000) == nil) }
        // Another client's drops are its own.
        #expect(backlogs.dropped(Data("client-b".utf8), now: start + 2_000_000)?.total == 1)
        let next = backlogs.dropped(client, now: start + second + 1)
        #expect(next?.sinceReport == 10, "\(String(describing: next))")
        #expect(next?.total == 11, "\(String(describing: next))")
        // Reading again ends the counts; a later drop starts from one.
        #expect(backlogs.readAgain(client)?.total == 11)
        #expect(backlogs.dropped(client, now: start + 3 * second)?.total == 1)
    }
}
