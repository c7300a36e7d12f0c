import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Deadline arithmetic saturates (issue 10): `intentbus send … --timeout 1e13` used to
/// stop the CLI with "arithmetic overflow" in `Duration.nanoseconds`.
@Suite("Deadlines saturate")
struct DeadlineTests {
    @Test("durations beyond UInt64 nanoseconds saturate; negative ones are zero")
    func nanosecondsSaturate() {
        #expect(Duration.seconds(1e13).nanoseconds == UInt64.max)
        #expect(Duration.seconds(Int64.max).nanoseconds == UInt64.max)
        #expect(Duration.seconds(18_446_744_073).nanoseconds == 18_446_744_073_000_000_000)
        #expect(Duration.seconds(18_446_744_074).nanoseconds == UInt64.max)
        #expect(Duration.seconds(-5).nanoseconds == 0)
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds > 0)
        #expect(Duration.milliseconds(250).wholeMilliseconds == 250)
    }

    @Test("a deadline after a huge duration is the end of time, not a crash")
    func deadlineSaturates() {
        #expect(MonotonicClock.deadline(after: .seconds(Int64.max)) == UInt64.max)
        #expect(MonotonicClock.deadline(after: .seconds(1e13)) == UInt64.max)
        let soon = MonotonicClock.deadline(after: .seconds(1))
        let now = MonotonicClock.now()
        #expect(soon > now && soon <= now + 1_000_000_000)
    }

    @Test("the REQUEST header's timeout_ms saturates at Int64.max")
    func headerTimeoutSaturates() {
        var options = RequestOptions()
        options.timeout = .seconds(1e13)
        #expect(options.header?["timeout_ms"]?.intValue == 10_000_000_000_000_000)
        options.timeout = .seconds(Int64.max)
        #expect(options.header?["timeout_ms"]?.intValue == Int64.max)
    }
}

/// Every number on the command line is range-checked (issue 10), with exit 2 and a
/// message naming the flag and the range.
@Suite("CLI numbers")
struct CLINumberTests {
    @Test("--timeout outside 0.001…86400 seconds, or not a number: exit 2, the flag and the range named")
    func timeoutRange() {
        let dir = TempDir()
        defer { dir.remove() }
        let endpoint = ["--endpoint", "ipc://\(dir.path)/nobody.sock"]
        for bad in ["1e13", "1e300", "86400.5", "0", "0.0004", "-1", "inf", "nan", "abc", "9223372036854775807"] {
            let r = runCommand(Products.path("intentbus"), ["send", "EchoIntent", "--timeout", bad] + endpoint, timeout: 20)
            #expect(r.status == 2, "--timeout \(bad): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("--timeout must be seconds within 0.001…86400, got \(bad)"), "\(r.stderr)")
        }
        // In range: accepted, and the request then waits for the absent host (exit 5).
        let ok = runCommand(Products.path("intentbus"), ["send", "EchoIntent", "--timeout", "0.001"] + endpoint, timeout: 20)
        #expect(ok.status == 5, "\(ok.stderr)")
    }
}
