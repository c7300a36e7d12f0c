import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The host's plain path forwards bodies unread, so the Swift plugin SDK refuses a
/// parameters body that is not a JSON object (issue 10): the echo plugin used to send
/// such a body back to the client as a REPLY.
@Suite("Plugin SDK refuses bad parameters bodies", .serialized)
struct ParametersBodyTests {
    static let echo = TestManifest.Plugin.echo()

    /// Sends one REQUEST with `body` as its raw body frame and returns the answer.
    func send(_ dealer: ZMQSocket, id: String, intent: String, body: [UInt8]) throws -> WireMessage {
        let frames = [Frame("IB1"), Frame("REQUEST"), Frame(id), Frame(intent), Frame(""), Frame(data: Data(body))]
        _ = try dealer.send(frames)
        let reply = try #require(try dealer.receive(), "no answer to \(id)")
        return try WireMessage.decode(reply[...])
    }

    @Test("a non-JSON or non-object body gets ERROR invalid_parameters from the echo and test plugins; an object is echoed")
    func refusedBeforeTheHandler() throws {
        let host = try TestHost(TestManifest(Self.echo, .test("tp")), waitReady: ["echo", "tp"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        let bad: [(String, [UInt8], String)] = [
            ("not-json", Array("hello".utf8), "not valid JSON"),
            ("truncated", Array("{\"a\":".utf8), "not valid JSON"),
            ("not-utf8", [0x7B, 0xFF, 0x7D], "not valid JSON"),
            ("array", Array("[1,2]".utf8), "got an array"),
            ("string", Array("\"x\"".utf8), "got a string"),
            ("number", Array("42".utf8), "got an integer"),
            ("null", Array("null".utf8), "got null"),
            ("big-int", Array("{\"n\":18446744073709551616}".utf8), "integer outside the 64-bit range"),
            ("surrogate", Array("{\"s\":\"\\ud800\"}".utf8), "unpaired surrogate"),
        ]
        for intent in ["EchoIntent", "TestIntent"] {
            for (name, body, detail) in bad {
                let answer = try send(dealer, id: "\(intent)-\(name)", intent: intent, body: body)
                #expect(answer.kind == .error, "\(intent) \(name): \(answer.kind)")
                #expect(answer.requestId == "\(intent)-\(name)")
                let error = BusError(json: try answer.bodyJSON())
                #expect(error.code == .invalidParameters, "\(intent) \(name): \(error)")
                #expect(error.message.hasPrefix("the parameters body must be a JSON object"), "\(error.message)")
                #expect(error.message.contains(detail), "\(intent) \(name): \(error.message)")
            }
        }
        let ok = try send(dealer, id: "echo-ok", intent: "EchoIntent", body: Array("{\"b\":[1,2.5,\"x\"]}".utf8))
        #expect(ok.kind == .reply)
        #expect(try ok.bodyJSON() == ["b": [1, 2.5, "x"]])
        let empty = try send(dealer, id: "echo-empty", intent: "EchoIntent", body: [])
        #expect(empty.kind == .reply)
        #expect(try empty.bodyJSON() == .object([:]))
        // The plugins are still serving.
        #expect(try host.plugin("echo")?["state"]?.stringValue == "ready")
        #expect(try host.plugin("tp")?["state"]?.stringValue == "ready")
    }

    @Test("the ordinary echo answers with the canonical text: a canonical body goes back as it came, any other rewritten")
    func echoAnswersCanonicalText() throws {
        let host = try TestHost(TestManifest(Self.echo), waitReady: ["echo"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        let large = "{\"p\":\"" + String(repeating: "x", count: 1 << 20) + "\"}"
        let cases: [(String, String)] = [
            (large, large),  // sent back as the request's own frame
            (#"{"a":"x","b":[1,2.5,null]}"#, #"{"a":"x","b":[1,2.5,null]}"#),
            (#"{ "b" : 1e2, "a":"x"}"#, #"{"a":"x","b":100.0}"#),
            (#"{"p":"\u00e9\/","p":"last"}"#, #"{"p":"last"}"#),
            (#"{"p":"\u00e9\/"}"#, "{\"p\":\"é/\"}"),
            (#"{"n":-0}"#, #"{"n":0}"#),
        ]
        for (i, (body, expected)) in cases.enumerated() {
            let answer = try send(dealer, id: "canonical-\(i)", intent: "EchoIntent", body: Array(body.utf8))
            #expect(answer.kind == .reply, "\(i): \(answer.kind)")
            #expect(answer.body.data == Data(expected.utf8), "\(i): \(String(decoding: answer.body.data.prefix(80), as: UTF8.self))")
        }
    }

    @Test("plugin-echo --raw (the benchmark's) still moves any body back unread")
    func rawEchoStaysRaw() throws {
        let host = try TestHost(TestManifest(Self.echo.with { $0.exec += " --raw" }),
                                waitReady: ["echo"])
        defer { host.stop() }
        let answer = try send(try host.rawDealer(), id: "raw", intent: "EchoIntent", body: Array("[1,2]".utf8))
        #expect(answer.kind == .reply)
        #expect(answer.body.data == Data("[1,2]".utf8))
    }
}
