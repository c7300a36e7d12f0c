import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusTestSupport
@testable import PluginHost

/// The relay lane without a process: a router core driven by `CoreHarness` (a set clock,
/// recorded effects) and a lane on real inproc sockets, a DEALER for the client and one
/// for the plugin, whose routing id is the plugin's id as the harness's HELLO says.
/// What the lane forwards arrives at those sockets; what the core sends after a promotion
/// is recorded by the harness.
@Suite("Relay lane, unit", .serialized)
struct RelayLaneUnitTests {
    final class Rig {
        let h: CoreHarness
        let context = try! ZMQContext()
        let frontend: ZMQSocket, backend: ZMQSocket, client: ZMQSocket, plugin: ZMQSocket
        var lane: RelayLane { h.core.relayLane! }
        let raw = RawMessage(capacity: 8)
        let endpointName: String

        init(maxInFlight: Int? = nil, host: [String] = [], lane: Bool = true, extensions: [any RouterExtension] = [],
             others: [TestManifest.Plugin] = [], coreExtensions: (RouterCore) -> [any RouterExtension] = { _ in [] },
             hello: ((_ token: String) -> JSON)? = nil) throws {
            var entry = TestManifest.Plugin.core("alpha", intents: ["I"], timeout: "2s")
            if let maxInFlight { entry = entry.maxInFlight(maxInFlight) }
            h = try CoreHarness(.core([entry] + others, host: host))
            for ext in extensions + coreExtensions(h.core) { h.core.install(ext) }
            if let hello {  // the plugin's own HELLO body (a new-style one: RelayLaneNewStyleUnitTests)
                let token = h.spawned.last { $0.id == "alpha" }?.token ?? ""
                h.core.pluginFrames([Frame("alpha")] + WireMessage(kind: .hello, header: nil, body: hello(token)).frames)
            } else {
                h.hello("alpha", intents: ["I"])
            }
            _ = h.take()  // its WELCOME
            let name = UUID().uuidString
            endpointName = name
            frontend = try ZMQSocket(context, .router)
            backend = try ZMQSocket(context, .router)
            try frontend.bind("inproc://front-\(name)")
            try backend.bind("inproc://back-\(name)")
            try backend.setRouterMandatory()
            client = try ZMQSocket(context, .dealer)
            try client.setIdentity("c1")
            try client.connect("inproc://front-\(name)")
            plugin = try ZMQSocket(context, .dealer)
            try plugin.setIdentity("alpha")
            try plugin.connect("inproc://back-\(name)")
            for s in [client, plugin] { try s.setReceiveTimeout(milliseconds: 2_000) }
            h.rawSockets = (frontend, backend)
            if lane { h.core.enableRelayLane() }
            // As after an earlier REPLY the core checked: this header may pass the lane.
            h.core.slots[0].rememberGoodHeader(Frame(data: Self.goodHeader.canonicalData), kind: .reply)
        }

        static let goodHeader: JSON = ["plugin": "alpha", "status": "success"]

        /// The client sends `kind`; it goes to the core's one entry, as the shell sends it.
        /// Returns whether the lane took it.
        @discardableResult
        func fromClient(_ kind: MessageKind, _ id: String, intent: String = "I", header: JSON? = nil,
                        body: JSON? = ["n": 1]) throws -> Bool {
            try client.send(WireMessage(kind: kind, requestId: id, intent: intent, header: header, body: body).frames)
            guard try receive(frontend) else { throw TestFailure("nothing arrived at the frontend") }
            return received(.clients)
        }

        /// The plugin answers, through the core's one entry.
        @discardableResult
        func fromPlugin(_ kind: MessageKind, _ wireId: String, header: JSON? = nil, body: JSON? = ["ok": true]) throws -> Bool {
            let header = header ?? (kind == .reply ? Self.goodHeader : nil)
            try plugin.send(WireMessage(kind: kind, requestId: wireId, intent: "I", header: header, body: body).frames)
            guard try receive(backend) else { throw TestFailure("nothing arrived at the backend") }
            return received(.plugins)
        }

        /// Another plugin's connection (a DEALER named after its id), for its own HELLO.
        private var peers: [String: ZMQSocket] = [:]

        /// Plugin `id` says HELLO (with its token) or DISCONNECT on its own connection,
        /// through the core's one entry; `id` "alpha" uses the rig's plugin socket.
        @discardableResult
        func pluginSays(_ kind: MessageKind, from id: String, intents: [String] = []) throws -> Bool {
            let socket: ZMQSocket
            if id == "alpha" { socket = plugin } else if let known = peers[id] { socket = known } else {
                socket = try ZMQSocket(context, .dealer)
                try socket.setIdentity(id)
                try socket.connect("inproc://back-\(endpointName)")
                peers[id] = socket
            }
            let token = h.spawned.last { $0.id == id }?.token ?? ""
            let body: JSON? = kind == .hello
                ? ["protocol": 1, "plugin": .string(id), "token": .string(token), "pid": 1,
                   "intents": .array(intents.map { ["name": .string($0), "style": "plain"] })]
                : nil
            try socket.send(WireMessage(kind: kind, header: nil, body: body).frames)
            guard try receive(backend) else { throw TestFailure("nothing arrived at the backend") }
            return received(.plugins)
        }

        private func received(_ side: RouterSide) -> Bool { h.core.receive(side, raw) }

        /// Waits (a little) for a message on a ROUTER the test reads itself.
        private func receive(_ socket: ZMQSocket) throws -> Bool {
            for _ in 0..<200 {
                if try raw.receive(from: socket) { return true }
                usleep(1_000)
            }
            return false
        }

        func next(_ socket: ZMQSocket) throws -> WireMessage {
            guard let frames = try socket.receive() else { throw TestFailure("no message") }
            return try WireMessage.decode(frames[...])
        }
    }

    @Test("a plain REQUEST is forwarded under a lane id and its REPLY goes back under the client's id")
    func forwardAndReply() throws {
        let rig = try Rig()
        #expect(try rig.fromClient(.request, "r1"))
        let delivered = try rig.next(rig.plugin)
        let wireId = delivered.requestId
        #expect(delivered.kind == .request && delivered.intent == "I" && delivered.header.count == 0)
        #expect(try delivered.bodyJSON() == ["n": 1])
        #expect((ExchangeTable.hostId(wireId) ?? 0) & ExchangeTable.laneBit != 0, "a lane id: \(wireId)")
        #expect(rig.h.core.slots[0].inFlight == 1 && rig.lane.count == 1)
        #expect(try rig.fromPlugin(.reply, wireId))
        let reply = try rig.next(rig.client)
        #expect(reply.kind == .reply && reply.requestId == "r1" && reply.intent == "I")
        #expect(try reply.bodyJSON() == ["ok": true])
        #expect(rig.h.core.slots[0].inFlight == 0 && rig.lane.count == 0 && rig.h.core.book.count == 0)
        #expect(rig.h.take().isEmpty, "the core sent nothing")
        // A second REPLY to the same id is late: the core drops it.
        #expect(try rig.fromPlugin(.reply, wireId) == false)
        #expect(rig.h.take().isEmpty)
    }

    @Test("a REPLY header without plugin goes to the core, which names who answered (protocol.md §4.2)")
    func unnamedReplyHeader() throws {
        let rig = try Rig()
        for (id, header) in [("e", JSON.object([:])), ("s", ["status": "failure"])] {
            #expect(try rig.fromClient(.request, id))
            let wireId = try rig.next(rig.plugin).requestId
            #expect(try rig.fromPlugin(.reply, wireId, header: header) == false, "the lane does not forward it")
            let reply = try #require(rig.h.take().last?.msg)
            #expect(reply.kind == .reply && reply.requestId == id)
            var expected = header.objectValue ?? [:]
            expected["plugin"] = "alpha"
            #expect(try reply.headerJSON() == .object(expected))
        }
    }

    @Test("what the lane does not take goes to the core: a header, an unknown intent, a full plugin, an unchecked REPLY header")
    func declines() throws {
        let rig = try Rig(maxInFlight: 1)
        #expect(try rig.fromClient(.request, "h", header: ["plugin": "alpha"]) == false)
        let forwarded = rig.h.take()
        #expect(forwarded.count == 1 && forwarded.first?.to == "alpha" && forwarded.first?.msg.kind == .request,
                "the core forwarded it")
        #expect(try rig.fromClient(.request, "u", intent: "Z") == false)
        #expect(try rig.h.take().first.map { BusError(json: try $0.msg.bodyJSON()).code } == .unknownIntent)
        #expect(try rig.fromClient(.request, "f") == false, "full: the core's request h is in flight")
        #expect(try rig.h.take().first.map { BusError(json: try $0.msg.bodyJSON()).code } == .busy)
        // The core's request ends; the next one takes the lane, and its REPLY carries a
        // header the core has not checked yet: that REPLY goes through the core.
        rig.h.plugin("alpha", .reply, forwarded[0].msg.requestId, header: ["status": "success"], body: [:])
        #expect(rig.h.take().map(\.msg.requestId) == ["h"])
        #expect(try rig.fromClient(.request, "g"))
        let g = try rig.next(rig.plugin).requestId
        #expect(try rig.fromPlugin(.reply, g, header: ["status": "success", "plugin": "alpha", "x": 1]) == false)
        #expect(rig.h.take().map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["REPLY g"])
        // Once checked, the same header is forwarded by the lane.
        #expect(try rig.fromClient(.request, "k"))
        let k = try rig.next(rig.plugin).requestId
        #expect(try rig.fromPlugin(.reply, k, header: ["status": "success", "plugin": "alpha", "x": 1]))
        #expect(try rig.next(rig.client).requestId == "k")
    }

    @Test("a deadline promotes the request: the core ends it with timeout, once")
    func deadline() throws {
        let rig = try Rig()
        #expect(try rig.fromClient(.request, "t"))
        let wireId = try rig.next(rig.plugin).requestId
        rig.h.advance(milliseconds: 1_900)  // heartbeats answered: the plugin is alive
        #expect(rig.lane.count == 1, "not due yet")
        rig.h.clock += 150_000_000
        rig.h.core.promoteDue()
        #expect(rig.lane.count == 0 && rig.h.core.book.count == 1)
        rig.h.core.fireDueTimers()
        let sent = rig.h.take()
        #expect(sent.contains { $0.to == "alpha" && $0.msg.kind == .cancel && $0.msg.requestId == wireId })
        let finals = sent.filter { $0.to == "c1" }
        #expect(finals.count == 1 && finals.first?.msg.kind == .error && finals.first?.msg.requestId == "t")
        #expect(try finals.first.map { BusError(json: try $0.msg.bodyJSON()).code } == .timeout)
        #expect(rig.h.core.slots[0].inFlight == 0)
        #expect(try rig.fromPlugin(.reply, wireId) == false)  // too late
        #expect(rig.h.take().isEmpty)
    }

    @Test("a CANCEL, a reused id and a plugin's ERROR each promote one request; one final each")
    func promotions() throws {
        let rig = try Rig()
        #expect(try rig.fromClient(.request, "c"))
        #expect(try rig.fromClient(.request, "d"))
        #expect(try rig.fromClient(.request, "e"))
        let ids = try (0..<3).map { _ in try rig.next(rig.plugin).requestId }
        try rig.fromClient(.cancel, "c", body: nil)
        #expect(try rig.fromClient(.request, "d") == false)
        #expect(try rig.fromPlugin(.error, ids[2], body: ["code": "failed", "message": "no"]) == false)
        let sent = rig.h.take().filter { $0.to == "c1" }
        #expect(sent.map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["ERROR c", "REFUSED d", "ERROR e"])
        #expect(rig.lane.count == 0 && rig.h.core.book.count == 1, "d is still open, in the core now")
        // d's REPLY now goes through the core.
        #expect(try rig.fromPlugin(.reply, ids[1]) == false)
        #expect(rig.h.take().map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["REPLY d"])
        #expect(rig.h.core.slots[0].inFlight == 0 && rig.h.core.book.count == 0)
    }

    /// A host intent that declares it reads every open request (as an extension would).
    final class OpenReader: RouterExtension {
        var hostIntents: [String: HostIntent] { ["ib.test.open": .answer { _ in .success([:]) }] }
        var intentsReadingOpenRequests: Set<String> { ["ib.test.open"] }
    }

    @Test("ib.ping promotes nothing; a host intent that declares it reads open requests promotes them all first")
    func hostIntentPromotion() throws {
        let rig = try Rig(extensions: [OpenReader()])
        for i in 0..<3 { #expect(try rig.fromClient(.request, "p\(i)")) }
        // The systemd watchdog's ib.ping on a timer: the lane keeps its requests.
        #expect(try rig.fromClient(.request, "s", intent: "ib.ping", body: nil) == false)
        #expect(rig.lane.count == 3 && rig.h.core.book.count == 0)
        #expect(rig.h.take().map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["REPLY s"])
        #expect(try rig.fromClient(.request, "o", intent: "ib.test.open", body: nil) == false)
        #expect(rig.lane.count == 0 && rig.h.core.book.count == 3)
        #expect(rig.h.take().map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["REPLY o"])
    }

    @Test("another plugin's HELLO and DISCONNECT, and ib.ping, leave a lane request on the lane; its own plugin's DISCONNECT fails it")
    func connectionsPromoteTheirOwn() throws {
        let rig = try Rig(others: [.core("beta", intents: ["J"])])
        #expect(try rig.fromClient(.request, "p1"))
        let p1 = try rig.next(rig.plugin).requestId
        // beta connects: new routes (a new routing epoch) for J, nothing changed for I.
        #expect(try rig.pluginSays(.hello, from: "beta", intents: ["J"]) == false)
        #expect(rig.h.take().map { "\($0.to) \($0.msg.kind.rawValue)" } == ["beta WELCOME"])
        #expect(rig.lane.count == 1 && rig.h.core.book.count == 0, "p1 stays on the lane")
        // The next request finds the new epoch: the lane's routes are rebuilt, p1 kept.
        #expect(try rig.fromClient(.request, "p2"))
        let p2 = try rig.next(rig.plugin).requestId
        #expect(try rig.fromClient(.request, "s", intent: "ib.ping", body: nil) == false)
        #expect(rig.h.take().map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["REPLY s"])
        #expect(try rig.pluginSays(.disconnect, from: "beta") == false)
        #expect(rig.lane.count == 2 && rig.h.core.book.count == 0, "beta's DISCONNECT concerns none of them")
        // p1's REPLY still takes the lane.
        #expect(try rig.fromPlugin(.reply, p1))
        #expect(try rig.next(rig.client).requestId == "p1")
        // alpha's own DISCONNECT: its request p2 is promoted and failed, once.
        #expect(try rig.pluginSays(.disconnect, from: "alpha") == false)
        #expect(rig.lane.count == 0 && rig.h.core.book.count == 0)
        let finals = rig.h.take().filter { $0.to == "c1" }
        #expect(finals.map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["ERROR p2"])
        #expect(try finals.first.map { BusError(json: try $0.msg.bodyJSON()).code } == .pluginUnavailable)
        #expect(rig.h.core.slots[0].inFlight == 0)
        #expect(try rig.fromPlugin(.reply, p2) == false, "too late: dropped")
        #expect(rig.h.take().filter { $0.to == "c1" }.isEmpty)
    }

    @Test("CURVE: a connection with another User-Id that takes over a routing id ends that id's lane requests too; their REPLY never reaches it")
    func takenOverRoutingIdEndsLaneRequests() throws {
        let rig = try Rig()
        let c1 = Data("c1".utf8)
        rig.h.core.bindClient(c1, user: "client:alice")  // as at its first message
        #expect(try rig.fromClient(.request, "p1"))
        let p1 = try rig.next(rig.plugin).requestId
        #expect(rig.lane.count == 1 && rig.h.core.slots[0].inFlight == 1)
        // A message under c1 with another User-Id: alice's connection has gone.
        rig.h.core.bindClient(c1, user: "client:mallory")
        #expect(rig.lane.count == 0 && rig.h.core.book.count == 0, "p1 ended with the core's requests of c1")
        #expect(rig.h.take().map { "\($0.to) \($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["alpha CANCEL \(p1)"],
                "the plugin is told; the newcomer gets no answer for alice's request")
        #expect(rig.h.core.slots[0].inFlight == 0)
        // The plugin answers anyway: too late, dropped by the core; nothing reaches c1.
        #expect(try rig.fromPlugin(.reply, p1) == false)
        #expect(rig.h.take().isEmpty)
        try rig.client.setReceiveTimeout(milliseconds: 100)
        #expect(try rig.client.receive() == nil, "nothing of alice's went to the new connection")
    }

    @Test("a header with only timeout_ms takes the lane: the plugin sees no header, and that timeout ends it")
    func timeoutHeader() throws {
        let rig = try Rig()
        #expect(try rig.fromClient(.request, "t", header: ["timeout_ms": 500]))
        let delivered = try rig.next(rig.plugin)
        #expect(delivered.header.count == 0, "the client's header is not the plugin's")
        rig.h.advance(milliseconds: 400)
        rig.h.core.promoteDue()
        #expect(rig.lane.count == 1, "not due yet")
        rig.h.clock += 150_000_000
        rig.h.core.promoteDue()
        rig.h.core.fireDueTimers()
        let finals = rig.h.take().filter { $0.to == "c1" }
        #expect(finals.count == 1)
        let error = try finals.first.map { BusError(json: try $0.msg.bodyJSON()) }
        #expect(error?.code == .timeout && error?.details["timeout_ms"] == 500, "\(String(describing: error))")
    }

    @Test("the client headers the lane carries: timeout_ms, client, credential, locale as RequestHeaderCheck takes them; nothing else")
    func carriedHeaders() {
        func read(_ text: String) -> LaneHeaders.Header? {
            Array(text.utf8).withUnsafeBytes { LaneHeaders.read($0, hash: ByteHash.hash($0)) }
        }
        #expect(read("{\"timeout_ms\":1}")?.timeout == 1_000_000)
        #expect(read("{\"timeout_ms\":86400000}")?.timeout == 86_400_000_000_000)
        #expect(read("{ \"timeout_ms\" : 5 }")?.timeout == 5_000_000, "any spelling the parse reads")
        let full = read("{\"client\":\"kitchen\",\"credential\":\"s3cret\",\"locale\":\"de-DE\",\"timeout_ms\":2500}")
        #expect(full?.client == "kitchen" && full?.locale == "de-DE" && full?.timeout == 2_500_000_000)
        #expect(full.map { String(decoding: $0.plainHeader, as: UTF8.self) } == "{\"client\":\"kitchen\"}",
                "the plugin gets the name, never the credential (Admission.deliveryHeader)")
        #expect(full?.options["credential"]?.stringValue == "s3cret", "a promotion's options are the header as read")
        #expect(read("{\"credential\":\"x\"}")?.plainHeader.isEmpty == true)
        let long = String(repeating: "a", count: RequestHeaderCheck.maximumCredentialLength + 1)
        for bad in ["{\"timeout_ms\":0}", "{\"timeout_ms\":86400001}", "{\"timeout_ms\":-5}", "{\"timeout_ms\":1.5}",
                    "{\"timeout_ms\":}", "{\"timeout_ms\":5,\"plugin\":\"a\"}", "{\"client\":5}", "{\"locale\":null}",
                    "{\"credential\":\"\(long)\"}", "{\"choice\":\"ask\"}", "{\"remember\":true}", "{\"context\":{}}",
                    "{\"run_key\":\"k\"}", "{\"authenticated\":\"me\"}", "{\"future_field\":1}", "[]", "\"x\"", "{", " ", ""] {
            #expect(read(bad) == nil, "\(bad)")
        }
    }

    @Test("the header table reads each distinct header once and reuses a row no open request holds")
    func headerTable() {
        var table = LaneHeaders()
        func find(_ text: String) -> Int? { Array(text.utf8).withUnsafeBytes { table.find($0) } }
        let a = find("{\"client\":\"a\"}")
        #expect(a != nil && find("{\"client\":\"a\"}") == a)
        #expect(find("{\"plugin\":\"p\"}") == nil)
        table.opened(a!)
        for n in 1..<LaneHeaders.capacity { table.opened(find("{\"client\":\"c\(n)\"}")!) }
        #expect(find("{\"client\":\"new\"}") == nil, "every row in use: the general path")
        table.closed(a!)
        let reused = find("{\"client\":\"new\"}")
        #expect(reused == a, "the row no request holds")
        #expect(reused.map { table.headers[$0].client } == "new")
        table.opened(reused!)
        #expect(find("{\"client\":\"a\"}") == nil, "its old header is gone from the index, and no row is free")
    }
}
