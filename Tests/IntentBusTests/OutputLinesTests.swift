import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

/// Plugin output bounds, without a process (the end-to-end proof is
/// clients/python/tests/test_e2e_plugin_flood.py).
@Suite("Plugin output lines")
struct OutputLinesTests {
    /// Collects what the relay logs.
    final class Collected: @unchecked Sendable {
        // @unchecked: `lines` only under `lock`.
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }

    private func relay(_ collected: Collected) -> PluginOutputRelay {
        let logger = Logger(label: "host", minimumLevel: .debug, format: .text, sink: { collected.add($0) })
        return PluginOutputRelay(logger: logger, logBook: nil, plugin: "p", pid: 1)
    }

    @Test("a line longer than 4 KiB is cut, with the count of bytes cut; nothing beyond is held")
    func longLine() {
        let collected = Collected()
        var lines = OutputLines()
        let relay = relay(collected)
        for _ in 0..<100 { lines.append(ArraySlice(Array(repeating: UInt8(ascii: "x"), count: 10_000)), to: relay, now: 1) }
        lines.append(ArraySlice(Array("\nnext\n".utf8)), to: relay, now: 1)
        let logged = collected.lines
        #expect(logged.count == 2)
        #expect(logged[0].contains(String(repeating: "x", count: 4_096) + " … (995904 more bytes cut)"))
        #expect(logged[1].hasSuffix("| next"))
    }

    @Test("over 64 KiB/s (bursts of 512 KiB) lines are dropped and counted, at most one report per 5 s; the rate refills")
    func rate() {
        let collected = Collected()
        var lines = OutputLines()
        let relay = relay(collected)
        let line = Array(String(repeating: "y", count: 896).utf8) + [10]  // costs 1 KiB with the overhead
        for _ in 0..<2_000 { lines.append(ArraySlice(line), to: relay, now: 1_000) }
        var logged = collected.lines
        #expect(logged.filter { $0.contains("| y") }.count == 512)
        #expect(logged.filter { $0.contains("were dropped") }.count == 1)  // the first drop is reported at once
        #expect(lines.droppedTotal == 1_488)
        // One second later: 64 more lines fit, the rest is counted, reported 5 s after the last report.
        for _ in 0..<100 { lines.append(ArraySlice(line), to: relay, now: 1_000_001_000) }
        logged = collected.lines
        #expect(logged.filter { $0.contains("| y") }.count == 576)
        lines.finish(to: relay, now: 1_000_001_000)
        let report = collected.lines.last ?? ""
        #expect(report.contains("lines of its output were dropped: more than 64 KiB/s (1524 in all)"), "\(report)")
    }
}
