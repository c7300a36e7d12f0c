import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: two real hosts on one real PostgreSQL server (`host.state`), real plugins,
/// real sockets. The server is the test's own (scripts/pg-temp.sh), stopped and started
/// again in the middle.
@Suite("Several hosts on one PostgreSQL, end to end", .serialized)
struct SharedStateEndToEndTests {
    /// Polls `probe` every 2 ms until it returns a value or `seconds` pass.
    private func eventually<T>(seconds: Double, _ probe: () -> T?) -> (T?, TimeInterval) {
        let start = Date()
        while true {
            if let value = probe() { return (value, Date().timeIntervalSince(start)) }
            if Date().timeIntervalSince(start) > seconds { return (nil, Date().timeIntervalSince(start)) }
            usleep(2_000)
        }
    }

    private func code(_ body: () throws -> Void) -> ErrorCode? {
        do { try body() } catch ClientError.bus(let error) { return error.code } catch { return nil }
        return nil
    }

    @Test("a choice made on host A is honored by host B with no prompt; a phrase added on A is said on B within 100 ms; the database stops: writes get state_unavailable and routing goes on; it is back: writes succeed, no restart")
    func twoHostsOneDatabase() throws {
        let database = try TemporaryPostgres()
        defer { database.destroy() }
        let manifest = TestManifest(claimants(["alpha", "beta"]) + [ShortcutFixtures.cart],
                                    host: .init(extra: ["state: \(YAMLScalar.render(database.url))"]))
        let a = try TestHost(manifest, waitReady: ["alpha", "beta", "cart"])
        defer { a.stop() }
        let b = try TestHost(manifest, waitReady: ["alpha", "beta", "cart"])
        defer { b.stop() }
        let onA = try a.client(), onB = try b.client()

        // A choice through A, then the next request through B: no prompt.
        let (chosen, asked) = try send(onA) { _ in ["value": "beta", "remember": "always"] }
        #expect(asked.count == 1)
        #expect(chosen.plugin == "beta")
        // At once: B looks in the database before it would prompt.
        let (honored, askedOnB) = try send(onB)
        #expect(askedOnB.isEmpty, "B knows A's choice")
        #expect(honored.plugin == "beta")
        #expect(try onB.control("ib.choices.list")["choices"]?.arrayValue?.first?["plugin"] == "beta")

        // A phrase added through A is said through B within 100 ms of A's answer.
        _ = try onA.control("ib.shortcuts.add", ["phrase": "Einkauf zeigen bitte", "intent": "ShowCartIntent",
                                                 "parameters": ["customer": "ada"]])
        let (match, latency) = eventually(seconds: 2) { () -> JSON? in
            guard let m = try? onB.control("ib.say.match", ["text": "Einkauf zeigen bitte"]), m["source"] == "user" else { return nil }
            return m
        }
        #expect(match?["intent"] == "ShowCartIntent")
        #expect(latency < 0.1, "the phrase reached B after \(Int(latency * 1000)) ms")
        let (said, _) = try say(onB, "Einkauf zeigen bitte")
        #expect(said.body["dialog"] == "3 items in ada's cart, €29.30 in total.")

        // The database stops: changes are refused with state_unavailable, on both hosts;
        // routing goes on from the hosts' caches.
        try database.stop()
        var restarted = false
        defer { if !restarted { try? database.start() } }
        #expect(code { _ = try onB.control("ib.choices.set", ["intent": "SharedIntent", "plugin": "alpha"]) } == .stateUnavailable)
        #expect(code { _ = try onA.control("ib.shortcuts.add", ["phrase": "noch ein satz", "intent": "ShowCartIntent"]) } == .stateUnavailable)
        let (cached, askedMeanwhile) = try send(onB)
        #expect(askedMeanwhile.isEmpty)
        #expect(cached.plugin == "beta", "the remembered choice answers from B's cache")
        let (saidMeanwhile, _) = try say(onA, "Einkauf zeigen bitte")
        #expect(saidMeanwhile.body["dialog"] == "3 items in ada's cart, €29.30 in total.")
        #expect(b.logEventually(contains: "state_unavailable"), "the host logs that the shared state is away")

        // Back: the same hosts write again (reconnecting with backoff), and see each other.
        try database.start()
        restarted = true
        let (set, _) = eventually(seconds: 10) { try? onB.control("ib.choices.set", ["intent": "SharedIntent", "plugin": "alpha"]) }
        #expect(set != nil, "B writes again without a restart")
        let (seenOnA, _) = eventually(seconds: 2) { () -> Bool? in
            (try? onA.control("ib.choices.list"))?["choices"]?.arrayValue?.first?["plugin"] == "alpha" ? true : nil
        }
        #expect(seenOnA == true)
        let (afterwards, askedAfterwards) = try send(onA)
        #expect(askedAfterwards.isEmpty)
        #expect(afterwards.plugin == "alpha")
        // A's phrase store has a connection of its own, back after its own backoff (at most
        // 2 s), which B's write above does not wait for: writes through A succeed again
        // within it, refused with state_unavailable (nothing else) until then.
        var refusals: [ErrorCode?] = []
        let (added, _) = eventually(seconds: 10) { () -> JSON? in
            do {
                return try onA.control("ib.shortcuts.add", ["phrase": "noch ein satz", "intent": "ShowCartIntent", "parameters": ["customer": "bob"]])
            } catch {
                refusals.append((error as? ClientError).flatMap { if case .bus(let e) = $0 { e.code } else { nil } })
                return nil
            }
        }
        #expect(added != nil, "A writes phrases again without a restart")
        #expect(refusals.allSatisfy { $0 == .stateUnavailable }, "only state_unavailable while A's store reconnects: \(refusals)")
    }
}
