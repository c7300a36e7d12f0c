import Foundation
import Testing
import IntentBus
@testable import IntentBusPlugin
@testable import PluginHost

/// Run-once for resent requests, without sockets: the host's run key (scoped by who sent
/// it, hashed) and the Swift SDK's table (`RunOnceBook`). The end-to-end proof, two hosts
/// and one plugin on both, is clients/python/tests/test_e2e_run_once.py (Python and Swift plugins).
@Suite("Run once")
struct RunOnceTests {
    @Test("the host scopes and hashes the client's run key; no key, no run key")
    func hostKey() throws {
        let anonymous = try #require(RunKey.of(["run_key": "k1"]))
        #expect(anonymous.count == 64 && anonymous.allSatisfy(\.isHexDigit))
        #expect(RunKey.of(["run_key": "k1"]) == anonymous, "stable: the resend gets the same key")
        #expect(RunKey.of(["run_key": "k2"]) != anonymous)
        // Two clients with one key (or one request id) never meet.
        #expect(RunKey.of(["run_key": "k1", "client": "alice"]) != anonymous)
        #expect(RunKey.of(["run_key": "k1", "client": "alice"]) != RunKey.of(["run_key": "k1", "client": "bob"]))
        #expect(RunKey.of(["run_key": "k1", "client": "alice", "authenticated": "alice"])
                != RunKey.of(["run_key": "k1", "client": "alice"]), "a key's name is not a header's claim")
        #expect(RunKey.of(["client": "alice"]) == nil)
        var header: [String: JSON] = [:]
        RunKey.deliver(from: ["timeout_ms": 5], into: &header)
        #expect(header.isEmpty)
    }

    @Test("a client's run_key is checked where the header enters the host")
    func headerCheck() {
        #expect(RequestHeaderCheck.problem(["run_key": "ab-12"]) == nil)
        #expect(RequestHeaderCheck.problem(["run_key": .string(String(repeating: "x", count: 128))]) == nil)
        #expect(RequestHeaderCheck.problem(["run_key": ""]) == "header field \"run_key\" must be 1 to 128 bytes, got 0")
        #expect(RequestHeaderCheck.problem(["run_key": .string(String(repeating: "x", count: 129))])
                == "header field \"run_key\" must be 1 to 128 bytes, got 129")
        #expect(RequestHeaderCheck.problem(["run_key": 7]) == "header field \"run_key\" must be a string, got 7")
    }

    @Test("the first delivery runs, a repeat joins, a later one gets the answer")
    func joinThenDone() {
        let book = RunOnceBook()
        let first = RunOnceBook.Waiter(link: 0, requestId: "h1")
        let second = RunOnceBook.Waiter(link: 1, requestId: "h7")
        #expect(book.claim("k", by: first) == .run)
        #expect(book.claim("k", by: second) == .join)
        let answer = RunOnceBook.FinalAnswer(kind: .reply, header: ["status": "success"], body: ["n": 1])
        #expect(book.finish("k", with: answer) == [second])
        #expect(book.claim("k", by: .init(link: 2, requestId: "h3")) == .done(answer))
        #expect(RunOnceBook.key(in: ["run_key": "k"]) == "k")
        #expect(RunOnceBook.key(in: ["run_key": ""]) == nil && RunOnceBook.key(in: [:]) == nil)
        #expect(RunOnceBook.key(in: ["run_key": .string(String(repeating: "x", count: 129))]) == nil)
    }

    @Test("a cancelled run is not kept; a lost host's or cancelled repeats are dropped")
    func cancelledAndDropped() {
        let book = RunOnceBook()
        _ = book.claim("k", by: .init(link: 0, requestId: "a"))
        _ = book.claim("k", by: .init(link: 1, requestId: "b"))
        _ = book.claim("k", by: .init(link: 2, requestId: "c"))
        _ = book.claim("k", by: .init(link: 3, requestId: "d"))
        book.dropLink(1)
        #expect(book.dropWaiter(.init(link: 2, requestId: "c")))
        #expect(!book.dropWaiter(.init(link: 2, requestId: "c")))
        let cancelled = RunOnceBook.FinalAnswer(kind: .error, header: nil, body: ["code": "cancelled", "message": "timeout"])
        #expect(book.finish("k", with: cancelled) == [.init(link: 3, requestId: "d")])
        #expect(book.claim("k", by: .init(link: 0, requestId: "e")) == .run, "runs afresh")
    }

    @Test("bounded in entries, bytes and time")
    func bounded() {
        let book = RunOnceBook(window: .milliseconds(50), maximumEntries: 3, maximumBytes: 4_000)
        for k in ["a", "b", "c"] { _ = book.claim(k, by: .init(link: 0, requestId: k)) }
        #expect(book.claim("d", by: .init(link: 0, requestId: "d")) == .untracked, "all three still run")
        let small = RunOnceBook.FinalAnswer(kind: .reply, header: nil, body: ["ok": true])
        _ = book.finish("a", with: small)
        #expect(book.claim("d", by: .init(link: 0, requestId: "d")) == .run, "the ended one made room")
        #expect(book.count == 3)
        let big = RunOnceBook.FinalAnswer(kind: .reply, header: nil, body: ["pad": .string(String(repeating: "x", count: 1_500))])
        _ = book.finish("d", with: big)
        #expect(book.claim("d", by: .init(link: 0, requestId: "d2")) == .run, "more than a quarter of the bytes: not kept")
        _ = book.finish("b", with: small)
        let later = MonotonicClock.now() + 100_000_000
        #expect(book.claim("b", by: .init(link: 0, requestId: "b2"), now: later) == .run, "past the window: forgotten")
    }
}
