import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

/// Refusals summed up in the log (the end-to-end proof is
/// clients/python/tests/test_e2e_refusal_log.py).
@Suite("Refusal summary")
struct RefusalSummaryTests {
    @Test("one line at once, then a count per reason once 10 s have passed, written by summarize or the next refusal")
    func counts() {
        let lines = OutputLinesTests.Collected()
        let logger = Logger(label: "host", minimumLevel: .debug, format: .text, sink: { lines.add($0) })
        var summary = RefusalSummary(subject: "clients", level: .info)
        let s: UInt64 = 1_000_000_000
        summary.refused("busy", detail: "request r1 for X: busy", now: 1 * s, logger: logger)
        for i in 0..<500 { summary.refused(i % 5 == 0 ? "unknown_intent" : "busy", detail: "…", now: 2 * s, logger: logger) }
        summary.summarize(now: 5 * s, logger: logger)  // too early
        #expect(lines.lines.count == 1)
        #expect(lines.lines[0].contains("clients: request r1 for X: busy (further refusals are summed up every 10 s)"))
        summary.refused("busy", detail: "request r600 for X: busy", now: 12 * s, logger: logger)
        #expect(lines.lines.count == 3)
        #expect(lines.lines[1].contains("clients: refused 500 more in the last 11 s: unknown_intent ×100, busy ×400"), "\(lines.lines[1])")
        #expect(lines.lines[2].contains("request r600"))
        summary.summarize(now: 30 * s, logger: logger)  // nothing counted since
        #expect(lines.lines.count == 3)
    }
}
