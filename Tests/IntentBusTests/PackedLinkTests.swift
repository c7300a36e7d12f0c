import Foundation
import Testing
import IntentBus
import IntentBusZMQ
import IntentBusTestSupport

/// The packed plugin link (docs/protocol.md §5.1): the Swift SDK asks for it, the host
/// agrees, and both send one packed frame per message up to `PackedFrame.linkLimit`
/// (six frames above it), reading both forms. The frame code, then the real host and
/// the Swift test plugin over ipc. (The host's side with a bare pyzmq plugin, and a
/// malformed packed answer: clients/python/tests/test_e2e_packed_link.py.)
@Suite("Packed plugin link")
struct PackedLinkTests {
    private func six(_ body: String) -> [Frame] {
        [Frame("IB1"), Frame("REPLY"), Frame("r-7"), Frame("TestIntent"), Frame("{\"status\":\"success\"}"), Frame(body)]
    }

    @Test("setPacked writes the documented packed frame; unpack(into:) gives back the six into the frames it is given")
    func framesRoundTrip() throws {
        let message = six("{\"a\":1}")
        let packed = Frame()
        #expect(packed.setPacked(message[...], limit: PackedFrame.linkLimit))
        let expected = try #require(PackedFrame.pack(WireBytes(frames: message.map { Array($0.data) })))
        #expect(Array(packed.data) == expected)
        var into = [Frame(), Frame(), Frame(), Frame(), Frame(), Frame()]
        let objects = into.map(ObjectIdentifier.init)
        #expect(packed.unpack(into: &into))
        #expect(into.map { Array($0.data) } == message.map { Array($0.data) })
        #expect(into.map(ObjectIdentifier.init) == objects, "the receiving frames are reused, not replaced")
        var fromEmpty: [Frame] = []
        #expect(packed.unpack(into: &fromEmpty) && fromEmpty.count == 6 && Array(fromEmpty[5].data) == Array("{\"a\":1}".utf8))
    }

    @Test("over the limit, not six frames, or a malformed packed frame: false, and nothing changed")
    func refusals() throws {
        let packed = Frame()
        #expect(!packed.setPacked(six(String(repeating: "x", count: 100))[...], limit: 64), "over the limit")
        #expect(!packed.setPacked(six("{}").dropLast(), limit: PackedFrame.linkLimit), "five frames")
        #expect(packed.count == 0, "content unchanged")
        let good = try #require(PackedFrame.pack(WireBytes(frames: six("{\"a\":1}").map { Array($0.data) })))
        var into = six("{\"kept\":true}")
        for broken in [Array(good.dropLast()), good + [0], Array("IB1".utf8), Array("IB1P".utf8)] {
            #expect(!Frame(bytes: broken).unpack(into: &into))
            #expect(Array(into[5].data) == Array("{\"kept\":true}".utf8))
        }
    }

    @Test("the Swift SDK's plugin gets the packed link; bodies on both sides of the limit, prompts and progress, errors, all answered as before")
    func endToEnd() throws {
        let host = try TestHost(TestManifest(.test("echo")), waitReady: ["echo"])
        defer { host.stop() }
        let client = try host.client()
        #expect(try host.plugin("echo")?["packed_link"] == true, "the SDK asked, the host agreed")
        for size in [10, 60_000, 65_400, 66_000, 300_000] {  // under, at and over the 64 KiB packed frame
            let text = String(repeating: "z", count: size)
            let reply = try client.send("TestIntent", parameters: ["text": .string(text)], onEvent: { _ in nil })
            #expect(reply.succeeded && reply.body["params"]?["text"] == .string(text), "body of \(size) bytes")
        }
        var progress = 0
        let asked = try client.send("TestIntent", parameters: ["ask": "colour", "progress": 3], onEvent: { event in
            switch event {
            case .prompt: return ["value": "blue"]
            case .progress: progress += 1; return nil
            }
        })
        #expect(asked.succeeded && asked.body["answer"] == "blue", "\(asked.body)")
        #expect(progress == 3)
        let failed = try client.send("TestIntent", parameters: ["fail": true], onEvent: { _ in nil })
        #expect(!failed.succeeded && failed.body["params"]?["fail"] == true)
    }
}
