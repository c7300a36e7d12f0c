import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusTestSupport
@testable import PluginHost

/// The exchange book as a value (Routing/ExchangeBook.swift): opening, closing exactly
/// once, timers that go stale, a client that has gone, and the bounds on what it keeps.
/// No core, no socket: the book is driven directly and its answers are checked.
@Suite("ExchangeBook")
struct ExchangeBookTests {
    /// Opens a request `id` of client `identity` in `book`, `bytes` long, at `stage`.
    @discardableResult
    private static func open(_ book: inout ExchangeBook, _ identity: String, _ id: String, bytes: Int = 10,
                             stage: Exchange.Stage = .pending(header: Frame(), body: Frame()),
                             plugin: Int = 0, requestReply: Bool = false) -> Exchange {
        let data = Data(identity.utf8)
        let state = book.clients.state(for: data)
        let exchange = Exchange(hostId: book.nextId(), client: RoutingEnvelope(identity: data, isRequestReply: requestReply),
                                clientState: state, clientRequestId: id, intent: "demo.Echo", pluginIndex: plugin,
                                timeout: 1_000, options: .object([:]), stage: stage, startedAt: 0)
        book.open(exchange, bytes: bytes)
        return exchange
    }

    @Test("open: found by host id, by wire id and by client; bytes counted for the client and the host")
    func opening() {
        var book = ExchangeBook()
        let a = Self.open(&book, "client-a", "r1", bytes: 30)
        let b = Self.open(&book, "client-a", "r2", bytes: 12)
        #expect(book.count == 2 && book.openBytes == 42 && a.clientState === b.clientState)
        #expect(book[a.hostId] === a && book[wireId: a.wireId] === a && book[wireId: "not-ours!"] == nil)
        #expect(book.open(client: Data("client-a".utf8), requestId: "r2") === b)
        #expect(book.open(client: Data("client-a".utf8), requestId: "r3") == nil)
        #expect(book.open(client: Data("client-b".utf8), requestId: "r1") == nil)
        #expect(a.clientState.openBytes == 42 && a.clientState.open == ["r1": a.hostId, "r2": b.hostId])
        #expect(book.all.map(\.clientRequestId) == ["r1", "r2"])
    }

    @Test("close: exactly once; what it releases follows the stage; counts return to zero")
    func closingOnce() {
        var book = ExchangeBook()
        let pending = Self.open(&book, "c", "p")
        let delivered = Self.open(&book, "c", "d", stage: .delivered)
        let prompting = Self.open(&book, "c", "q", stage: .prompting)
        let choosing = Self.open(&book, "c", "x", stage: .choosing(PluginChoiceStage(candidates: [0, 1], staleReason: nil),
                                                                   header: Frame(), body: Frame()))
        #expect(book.close(pending, final: .reply) == ExchangeBook.Closing(release: .waiting, tellClient: true))
        #expect(book.close(pending, final: .error) == nil, "a second close is refused: one final answer")
        #expect(book.close(delivered, final: .error)?.release == .inFlight)
        #expect(book.close(prompting, final: .reply)?.release == .inFlight)
        #expect(book.close(choosing, final: .error)?.release == .nothing)
        #expect(book.close(choosing, final: .error) == nil)
        #expect(book.count == 0 && book.openBytes == 0 && pending.clientState.open.isEmpty && pending.clientState.openBytes == 0)
        #expect(book[delivered.hostId] == nil)
    }

    @Test("close: no RESULT to a REQ client, nothing to a client that has gone")
    func whoIsTold() {
        var book = ExchangeBook()
        let req = Self.open(&book, "req", "1", requestReply: true)
        let req2 = Self.open(&book, "req", "2", requestReply: true)
        let dealer = Self.open(&book, "dealer", "1")
        #expect(book.close(req, final: .result)?.tellClient == false)
        #expect(book.close(req2, final: .reply)?.tellClient == true)
        #expect(book.close(dealer, final: .result)?.tellClient == true)
    }

    @Test("a timer that fires after its exchange closed, or after it was re-armed, is for nobody")
    func staleTimers() {
        var book = ExchangeBook()
        let e = Self.open(&book, "c", "1", stage: .delivered)
        book.armDeadline(e, at: 100)
        book.armExpiry(e, at: 200)  // the question replaces the deadline
        book.armDeadline(e, at: 300)
        let due = book.popDue(now: 250)
        #expect(due.count == 2 && due.allSatisfy { book.exchange(of: $0) == nil }, "both were re-armed")
        #expect(book.popDue(now: 299).isEmpty)
        book.armDeadline(e, at: 400)
        _ = book.close(e, final: .reply)
        let late = book.popDue(now: 1_000)
        #expect(late.count == 2 && late.allSatisfy { book.exchange(of: $0) == nil }, "closed: its timers do nothing")

        let live = Self.open(&book, "c", "2", stage: .delivered)
        book.armDeadline(live, at: 2_000)
        let fired = book.popDue(now: 2_000)
        #expect(fired.count == 1 && book.exchange(of: fired[0]) === live)
        #expect(book.exchange(of: .restart(index: 0)) == nil, "plugin timers are not the book's to judge")
    }

    @Test("a client that has gone: its open exchanges, a fresh state for the newcomer, nothing sent to it")
    func clientGone() {
        var book = ExchangeBook()
        let a1 = Self.open(&book, "a", "1", stage: .delivered)
        let a2 = Self.open(&book, "a", "2")
        let b = Self.open(&book, "b", "1")
        let (open, fresh) = book.clientGone(a1.clientState)
        #expect(Set(open.map(\.hostId)) == [a1.hostId, a2.hostId])
        #expect(fresh !== a1.clientState && fresh.open.isEmpty && !fresh.gone && a1.clientState.gone)
        #expect(book.clients.state(for: Data("a".utf8)) === fresh)
        #expect(book.close(a1, final: .error)?.tellClient == false && book.close(a2, final: .error)?.tellClient == false)
        #expect(book.open(client: Data("b".utf8), requestId: "1") === b && book.count == 1)
    }

    @Test("delivered(to:): the exchanges a plugin holds, oldest first")
    func deliveredToPlugin() {
        var book = ExchangeBook()
        let x = Self.open(&book, "c", "1", stage: .delivered, plugin: 1)
        _ = Self.open(&book, "c", "2", stage: .pending(header: Frame(), body: Frame()), plugin: 1)
        let y = Self.open(&book, "c", "3", stage: .prompting, plugin: 1)
        _ = Self.open(&book, "c", "4", stage: .delivered, plugin: 2)
        #expect(book.delivered(to: 1).map(\.hostId) == [x.hostId, y.hostId])
    }

    @Test("a promoted lane request keeps its id and is closed like any other")
    func promoted() {
        var book = ExchangeBook()
        let data = Data("lane-client".utf8)
        let id = UInt64(7) << 32 | ExchangeTable.laneBit | 3
        let e = Exchange(hostId: id, client: RoutingEnvelope(identity: data, isRequestReply: false),
                         clientState: book.clients.state(for: data), clientRequestId: "r", intent: "demo.Echo",
                         pluginIndex: 0, timeout: 1_000, options: .object([:]), stage: .delivered, startedAt: 0)
        book.open(e, bytes: 99, promoted: true)
        #expect(book[id] === e && book.openBytes == 99 && book.open(client: data, requestId: "r") === e)
        #expect(book.close(e, final: .reply)?.release == .inFlight && book.count == 0 && book.openBytes == 0)
    }

    @Test("bounds: stale timers are dropped once they outnumber the open requests; idle clients are swept")
    func bounds() {
        var book = ExchangeBook()
        let kept = Self.open(&book, "keeper", "k", stage: .delivered)
        book.armDeadline(kept, at: UInt64.max)
        for i in 0..<10_000 {
            let e = Self.open(&book, "c\(i % 3)", "\(i)", stage: .delivered)
            book.armDeadline(e, at: 1_000_000 + UInt64(i))
            _ = book.close(e, final: .reply)
            #expect(book.timers.count <= ExchangeBook.staleTimerSlack + 4 * (book.count + 1))
        }
        #expect(book.count == 1 && book.exchange(of: .requestDeadline(hostId: kept.hostId, generation: kept.generation)) === kept)
        for i in 0..<5_000 { _ = book.clients.state(for: Data("idle-\(i)".utf8)) }
        #expect(book.clients.count <= 2_048, "clients with nothing open are swept: \(book.clients.count)")
        #expect(book.clients.existing(Data("keeper".utf8)) === kept.clientState, "a client with an open request stays")
    }

    @Test("the core: an answer to a question a legacy flow relayed arms the plugin's deadline once, not twice")
    func answerArmsOnce() throws {
        let h = try CoreHarness(.core([.core("a", intents: ["StatusIntent"]).definitions([Products.file("definitions/balance.yaml")])]))
        h.hello("a", intents: ["StatusIntent"], style: "legacy")
        _ = h.take()
        h.client("c", .request, "r1", "StatusIntent", body: [:])
        let delivered = try #require(h.lastRequest(to: "a"))
        h.plugin("a", .prompt, delivered.requestId, body: ["kind": "text", "dialog": "Which PIN?"])
        #expect(h.take().contains { $0.to == "c" && $0.msg.kind == .prompt })
        let before = h.core.book.timers.count
        h.client("c", .answer, "r1", "StatusIntent", body: ["value": "1234"])
        #expect(h.take().contains { $0.to == "a" && $0.msg.kind == .answer && $0.msg.requestId == delivered.requestId })
        #expect(h.core.book.timers.count == before + 1, "one deadline for the plugin's next answer")
        h.advance(milliseconds: 2_100)  // the manifest's 2 s: the one deadline still ends it
        #expect(h.take().contains { $0.to == "c" && $0.msg.kind == .error && (try? $0.msg.bodyJSON()["code"]) == "timeout" })
    }
}
