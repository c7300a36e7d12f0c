import Foundation
import Testing
import IntentBus
import IntentBusProcess
import IntentBusTestSupport

/// The packed form (docs/protocol.md §2.1): the byte codec on its own, then end to end
/// over tcp+CURVE on 127.0.0.1 with the real host and test plugin.
@Suite("Packed form")
struct PackedFormTests {
    private func six(_ kind: MessageKind, _ id: String, body: String = "{\"a\":1}") -> WireBytes {
        WireBytes(kind: kind, requestId: id, intent: "TestIntent", header: Array("{\"timeout_ms\":500}".utf8), body: Array(body.utf8))
    }

    @Test("pack and unpack give back the six frames; the layout is the documented one")
    func roundTrip() throws {
        let message = six(.request, "r1")
        let packed = try #require(PackedFrame.pack(message))
        #expect(Array(packed.prefix(12)) == Array("IB1P\u{07}REQUEST".utf8))
        #expect(packed.count == 4 + 3 + 8 + 7 + 2 + 10 + 18 + 7)
        let unpacked = try PackedFrame.unpack(packed)
        #expect(unpacked == message)
        let empty = WireBytes(kind: .heartbeat)
        let emptyAgain = try PackedFrame.unpack(try #require(PackedFrame.pack(empty)))
        #expect(emptyAgain == empty)
        #expect(PackedFrame.pack(WireBytes(kind: .request, requestId: String(repeating: "x", count: 256))) == nil,
                "a request id over 255 bytes has no packed form")
    }

    @Test("every length is range-checked: a clear bad_frame for each malformed packed frame")
    func malformed() throws {
        let good = try #require(PackedFrame.pack(six(.request, "r1")))
        var hugeHeader = good
        hugeHeader.replaceSubrange(26..<30, with: [0xff, 0xff, 0xff, 0xff])
        let cases: [([UInt8], String)] = [
            (Array(good.dropLast()), "the body of a packed frame (7 bytes) runs past the frame's end"),
            (good + [0x21], "has 1 bytes after its body"),
            (Array("IB1P".utf8), "ends before the length of its kind"),
            (Array("IB1P\u{07}REQ".utf8), "the kind of a packed frame (7 bytes) runs past"),
            (hugeHeader, "the header of a packed frame (4294967295 bytes) runs past"),
            (Array("IB1X".utf8), "starts with \"IB1P\""),
        ]
        for (bytes, why) in cases {
            do {
                _ = try PackedFrame.unpack(bytes)
                Issue.record("accepted \(bytes.count) bytes that should say: \(why)")
            } catch {
                #expect(error.code == .badFrame && error.message.contains(why), "\(error.message)")
            }
        }
        // Well-framed but not a message: refused by the same rules as six frames.
        let unknown = try #require(PackedFrame.pack(WireBytes(kind: .request)).map { Array($0[..<4]) + [3] + Array("FOO".utf8) + Array($0[12...]) })
        #expect(throws: WireError.self) { try PackedFrame.unpack(unknown) }
    }
}

/// The same over a real host: tcp+CURVE, one port per test.
@Suite("Packed form end to end", .serialized)
struct PackedFormEndToEndTests {
    private struct CurveHost {
        let host: TestHost
        let endpoint: String
        let keys: CurveKeyPair
        let serverKey: String

        func client() throws -> IntentClient { try IntentClient(endpoint: endpoint, curve: (keys, serverKey)) }

        /// A raw CURVE DEALER with this client's key.
        func dealer() throws -> ZMQSocket {
            let dealer = try ZMQSocket(ZMQContext(), .dealer)
            try dealer.makeCurveClient(keys, serverKey: serverKey)
            try dealer.setReceiveTimeout(milliseconds: 10_000)
            try dealer.connect(endpoint)
            return dealer
        }
    }

    /// `others`: further `host.clients` entries, as lines.
    private func start(others: [String] = []) throws -> CurveHost {
        let keys = try CurveKeyPair.generate()
        let endpoint = "tcp://127.0.0.1:\(try LoopbackPort.free())"
        let manifest = TestManifest(.test("echo"), host: .init(extra: [
            "frontend: \(endpoint)", "clients:", "  - name: alice", "    public_key: \"\(keys.publicKey)\"",
        ] + others))
        let host = try TestHost(yaml: manifest.yaml, waitServing: false)
        let keyFile = "\(host.dir.path)/state/host.pub"
        let deadline = Date().addingTimeInterval(20)
        var serverKey: String?
        while serverKey == nil, Date() < deadline {
            usleep(50_000)
            serverKey = CurveKeyPair.readKey(path: keyFile)
        }
        guard let serverKey else { host.stop(); throw TestFailure("no host.pub within 20 s:\n\(host.log)") }
        let curve = CurveHost(host: host, endpoint: endpoint, keys: keys, serverKey: serverKey)
        let client = try curve.client()
        while Date() < deadline {
            if (try? client.send("TestIntent", onEvent: { _ in nil }))?.succeeded == true { return curve }
            usleep(100_000)
        }
        host.stop()
        throw TestFailure("the echo plugin did not answer over CURVE within 20 s:\n\(host.log)")
    }

    private func request(_ id: String, body: JSON) -> [Frame] {
        WireMessage(kind: .request, requestId: id, intent: "TestIntent", header: nil, body: body).frames
    }

    /// The final answer for `id`, and whether it came packed.
    private func final(_ dealer: ZMQSocket, _ id: String) throws -> (WireMessage, packed: Bool) {
        while true {
            guard let frames = try dealer.receive() else { throw TestFailure("no answer for \(id)") }
            let packed = frames.count == 1 && frames[0].isPacked
            let msg = try WireMessage.decode((packed ? try frames[0].unpacked() : frames)[...])
            if msg.requestId == id, [.reply, .error, .refused].contains(msg.kind) { return (msg, packed) }
        }
    }

    @Test("the Swift client announces the packed form and packs; answers, grant and bodies are those of six frames")
    func swiftClientPacks() throws {
        let curve = try start()
        defer { curve.host.stop() }
        let client = try curve.client()
        let big = String(repeating: "y", count: 300_000)  // shared with the packed frame in the host, not copied
        for (i, params) in [["n": JSON.int(1)], ["big": .string(big)], ["n": .int(3)]].enumerated() {
            let reply = try client.send("TestIntent", parameters: .object(params), onEvent: { _ in nil })
            #expect(reply.succeeded && reply.body["params"] == .object(params), "request \(i)")
        }
        #expect(client.speaksPackedForm, "the host answered the announcement in the packed form")
    }

    @Test("an old six-frame client on the same host gets six frames; a packed one gets one frame; each as it spoke last")
    func oldClientStillWorks() throws {
        let curve = try start()
        defer { curve.host.stop() }
        let old = try curve.dealer()
        for i in 0..<3 {
            try old.send(request("o\(i)", body: ["i": .int(Int64(i))]))
            let (msg, packed) = try final(old, "o\(i)")
            let body = try msg.bodyJSON()
            #expect(!packed && msg.kind == .reply && body["params"]?["i"] == .int(Int64(i)))
        }
        let new = try curve.dealer()
        try new.send([try #require(Frame.packing(request("p1", body: ["x": "y"])[...]))])
        let (reply, packed) = try final(new, "p1")
        let body = try reply.bodyJSON()
        #expect(packed && reply.kind == .reply && body["params"]?["x"] == "y")
        try new.send(request("p2", body: [:]))
        let again = try final(new, "p2")
        #expect(again.packed == false, "six frames again: answered in six")
    }

    @Test("a malformed packed frame gets REFUSED bad_frame saying which length does not fit; the connection goes on")
    func malformedIsRefused() throws {
        let curve = try start()
        defer { curve.host.stop() }
        let dealer = try curve.dealer()
        let good = try #require(PackedFrame.pack(WireBytes(kind: .request, requestId: "m1", intent: "TestIntent",
                                                           body: Array("{\"a\":1}".utf8))))
        try dealer.send([Frame(bytes: good.dropLast())])
        let frames = try #require(try dealer.receive())
        #expect(frames.count == 1 && frames[0].isPacked, "refused in the form the client spoke")
        let refusal = try WireMessage.decode(try frames[0].unpacked()[...])
        let body = try refusal.bodyJSON()
        #expect(refusal.kind == .refused && body["code"] == "bad_frame")
        #expect(body["message"]?.stringValue?.contains("runs past the frame's end") == true, "\(body)")
        try dealer.send([Frame(bytes: good)])
        let (reply, packed) = try final(dealer, "m1")
        #expect(reply.kind == .reply && packed)
        #expect(curve.host.logEventually(contains: "malformed message from a client: the body of a packed frame (7 bytes) runs past"))
    }

    @Test("a keyed client's plain requests take the relay lane once its connection is bound, with its name for the plugin; a grant without the intent is still refused")
    func keyedClientsTakeTheLane() throws {
        let bob = try CurveKeyPair.generate()
        let curve = try start(others: ["  - name: bob", "    public_key: \"\(bob.publicKey)\"", "    intents: [OtherIntent]"])
        defer { curve.host.stop() }
        func relayed() throws -> Int64 {
            try curve.client().control("ib.status")["host"]?["relay"]?["relayed"]?.intValue ?? -1
        }
        let before = try relayed()
        let alice = try curve.client()
        for i in 0..<20 {
            let reply = try alice.send("TestIntent", parameters: ["n": .int(Int64(i))], onEvent: { _ in nil })
            #expect(reply.succeeded && reply.body["params"]?["n"] == .int(Int64(i)))
            #expect(reply.body["client"] == "alice", "the plugin is told the key's client, as on the general path")
        }
        let afterAlice = try relayed()
        #expect(afterAlice - before == 19, "the connection's first request reads its grant on the general path; the rest take the lane")
        let bobs = try IntentClient(endpoint: curve.endpoint, curve: (bob, curve.serverKey))
        for _ in 0..<2 {  // the second with bob's grant read: still not the lane's to take
            do {
                _ = try bobs.send("TestIntent", onEvent: { _ in nil })
                Issue.record("bob was served TestIntent")
            } catch {
                #expect(error.code == "forbidden", "\(error)")
            }
        }
        let afterBob = try relayed()
        #expect(afterBob == afterAlice, "bob's requests took the general path")
    }
}
