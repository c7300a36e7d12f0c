import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusWire
@testable import PluginHost

/// The benchmark-driven changes to the routing hot path keep their behaviour.
@Suite struct HotPathTests {
    @Test func routerSendsToAnIdentityWithoutAnIdentityFrame() throws {
        let context = ZMQContext()
        let endpoint = "inproc://hotpath-send-to-\(UUID().uuidString)"
        let router = try ZMQSocket(context, .router)
        try router.setRouterMandatory()
        try router.bind(endpoint)
        let dealer = try ZMQSocket(context, .dealer)
        try dealer.setIdentity("peer-1")
        try dealer.setReceiveTimeout(milliseconds: 5_000)
        try dealer.connect(endpoint)
        // The ROUTER learns the identity from the first message the peer sends.
        try dealer.send([Frame("hi")])
        try router.setReceiveTimeout(milliseconds: 5_000)
        let hello = try #require(try router.receive())
        #expect(hello.first?.string == "peer-1")

        #expect(try router.send(to: Data("peer-1".utf8), [Frame("a"), Frame(""), Frame("b")], dontWait: true))
        let got = try #require(try dealer.receive())
        #expect(got.map(\.string) == ["a", "", "b"])
        do {
            try router.send(to: Data("nobody".utf8), [Frame("x")], dontWait: true)
            Issue.record("sending to an unknown identity should fail with ROUTER_MANDATORY")
        } catch {
            #expect(error.isHostUnreachable)
        }
    }

    @Test func hostIdsRoundTripThroughTheirBase36Text() {
        for id: UInt64 in [0, 1, 35, 36, 1 << 32 | 7, 0xffff_ffff_0000_1234, .max] {
            #expect(ExchangeTable.wireId(id) == String(id, radix: 36))
            #expect(ExchangeTable.hostId(ExchangeTable.wireId(id)) == id)
        }
        for wrong in ["", "A", "-1", "1 ", "zzzzzzzzzzzzzz", "3w5e11264sgsg"] {
            #expect(ExchangeTable.hostId(wrong) == nil, "\(wrong)")
        }
    }

    @Test func exchangeTableReusesSlotsButNeverOldIds() {
        var table = ExchangeTable()
        func open() -> Exchange {
            let exchange = Exchange(hostId: table.nextId(), client: RoutingEnvelope(frames: [Frame("c")], identity: Data("c".utf8)),
                                    clientState: ClientState(identity: Data("c".utf8)), clientRequestId: "r", intent: "I", pluginIndex: 0, timeout: 1, options: .object([:]), stage: .delivered)
            table.insert(exchange)
            return exchange
        }
        let first = open(), second = open()
        #expect(table.count == 2)
        #expect(table[first.hostId] === first && table[wireId: second.wireId] === second)
        #expect(table.remove(first.hostId) === first)
        #expect(table.remove(first.hostId) == nil)
        let third = open()  // takes the first one's slot under a new id
        #expect(third.hostId & 0xffff_ffff == first.hostId & 0xffff_ffff && third.hostId != first.hostId)
        #expect(table[first.hostId] == nil && table[wireId: first.wireId] == nil)
        #expect(table.all.map(\.hostId) == [second.hostId, third.hostId])
        #expect(table.count == 2)
    }

    @Test func validUTF8KeepsASCIIAndMultibyteAndRejectsInvalidBytes() {
        #expect(Frame("StatusIntent").validUTF8 == "StatusIntent")
        #expect(Frame("").validUTF8 == "")
        #expect(Frame("Grüße→✓").validUTF8 == "Grüße→✓")
        #expect(Frame(bytes: [0x41, 0xFF, 0x42]).validUTF8 == nil)
        #expect(Frame(bytes: [0xC3]).validUTF8 == nil)  // a truncated two-byte sequence
    }

    @Test func decodeReadsASliceThatDoesNotStartAtZero() throws {
        // The router decodes what follows the routing envelope: a slice starting at 1 or 2.
        let frames = [Frame("peer"), Frame(), Frame("IB1"), Frame("REPLY"), Frame("r7"), Frame("EchoIntent"),
                      Frame("{}"), Frame("{\"a\":1}")]
        let msg = try WireMessage.decode(frames[2...])
        #expect(msg.kind == .reply)
        #expect(msg.requestId == "r7")
        #expect(msg.intent == "EchoIntent")
        #expect(msg.body.string == "{\"a\":1}")
        #expect(throws: WireError.self) {
            try WireMessage.decode([Frame("IB1"), Frame("REPLY"), Frame(bytes: [0xFF]), Frame("X"), Frame(), Frame()][1...])
        }
    }

    @Test func forwardingADecodedMessageMovesItsFramesAndHonoursChanges() throws {
        let received = [Frame("IB1"), Frame("REPLY"), Frame("h1"), Frame("EchoIntent"), Frame("{}"), Frame("{\"x\":1}")]
        let msg = try WireMessage.decode(received[...])
        msg.requestId = "client-7"
        msg.intent = "EchoIntent"  // unchanged: the received frame is reused
        let out = msg.frames(after: [Frame("peer")])
        #expect(out.map(\.string) == ["peer", "IB1", "REPLY", "client-7", "EchoIntent", "{}", "{\"x\":1}"])
        #expect(out[1] === received[0] && out[4] === received[3])

        let changed = try WireMessage.decode([Frame("IB1"), Frame("REPLY"), Frame("h2"), Frame("A"), Frame(), Frame()][...])
        changed.kind = .error
        changed.intent = "B"
        #expect(changed.frames.map(\.string) == ["IB1", "ERROR", "h2", "B", "", ""])
        // A second call builds fresh envelope frames rather than handing out the used ones.
        let again = changed.frames
        #expect(again[1].string == "ERROR" && again[3].string == "B")
    }

    @Test func compactDropsStaleTimersAndKeepsTheRestInOrder() {
        var heap = TimerHeap<Int>()
        for i in (0..<10_000).reversed() { heap.schedule(at: UInt64(i), i) }
        heap.compact { $0 % 100 == 0 }
        #expect(heap.count == 100)
        #expect(heap.nextDeadline == 0)
        #expect(heap.popDue(now: 1_000) == Array(stride(from: 0, through: 1_000, by: 100)))
        heap.schedule(at: 50, -1)
        #expect(heap.popDue(now: UInt64.max) == [-1] + Array(stride(from: 1_100, to: 10_000, by: 100)))
        #expect(heap.isEmpty)
    }
}
