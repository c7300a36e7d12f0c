import Foundation
import Testing
@testable import IntentBus

@Suite("Wire codec")
struct WireTests {
    @Test func roundTrip() throws {
        let msg = WireMessage(kind: .request, requestId: "r1", intent: "StatusIntent",
                              header: ["timeout_ms": 500], body: ["contract": "c1"])
        let decoded = try WireMessage.decode(msg.frames[...])
        #expect(decoded.kind == .request)
        #expect(decoded.requestId == "r1")
        #expect(decoded.intent == "StatusIntent")
        #expect(decoded.header.string == #"{"timeout_ms":500}"#)
        #expect(try decoded.bodyJSON() == ["contract": "c1"])
    }

    @Test func emptyFramesMeanEmptyObjects() throws {
        let msg = try WireMessage.decode([Frame("IB1"), Frame("REQUEST"), Frame("r"), Frame("X"), Frame(), Frame()][...])
        #expect(try msg.headerJSON() == .object([:]))
        #expect(try msg.bodyJSON() == .object([:]))
    }

    @Test func rejectsWrongShapes() {
        #expect(throws: WireError.self) { try WireMessage.decode([Frame("IB1")][...]) }
        #expect(throws: WireError.self) {
            try WireMessage.decode([Frame("IB1"), Frame("NOPE"), Frame(""), Frame(""), Frame(), Frame()][...])
        }
        #expect(throws: WireError.self) {
            try WireMessage.decode([Frame("IB1"), Frame("REQUEST"), Frame(String(repeating: "x", count: 256)),
                                    Frame(""), Frame(), Frame()][...])
        }
    }

    @Test func everyKindIsDecodedFromItsFrame() throws {
        for kind in MessageKind.allCases {
            let msg = try WireMessage.decode(WireMessage(kind: kind, requestId: "r", intent: "X").frames[...])
            #expect(msg.kind == kind)
        }
        for wrong in ["", "REQUESTS", "REQUES", "request", "REPLY\0"] {
            #expect(throws: WireError.self) {
                try WireMessage.decode([Frame("IB1"), Frame(wrong), Frame("r"), Frame("X"), Frame(), Frame()][...])
            }
        }
    }

    @Test func canonicalJSON() throws {
        let v: JSON = ["b": [1, 2.5, "ü/€"], "a": nil, "c": ["z": true, "y": "line\n"]]
        #expect(v.canonicalString == #"{"a":null,"b":[1,2.5,"ü/€"],"c":{"y":"line\n","z":true}}"#)
        #expect(try JSON.parse(v.canonicalString) == v)
        #expect(try JSON.parse("3") == .int(3))
        #expect(try JSON.parse("3.5") == .double(3.5))
    }

    @Test func routingEnvelope() {
        let (dealer, rest) = RoutingEnvelope.split([Frame("id"), Frame("IB1"), Frame("REQUEST")])!
        #expect(!dealer.isRequestReply)
        #expect(rest.count == 2)
        let (req, rest2) = RoutingEnvelope.split([Frame("id"), Frame(), Frame("IB1")])!
        #expect(req.isRequestReply)
        #expect(rest2.count == 1)
    }
}

@Suite("JSON parser")
struct JSONParserTests {
    @Test func keepsIntegersAndDecimalsApart() throws {
        #expect(try JSON.parse("0") == .int(0))
        #expect(try JSON.parse("0.0") == .double(0))
        #expect(try JSON.parse("-12") == .int(-12))
        #expect(try JSON.parse("1e2") == .double(100))
        // The protocol's integers are 64-bit: one beyond is refused, not read as a decimal (issue 10).
        #expect(try JSON.parse("9223372036854775807") == .int(.max))
        #expect(throws: JSONParseError.self) { try JSON.parse("9223372036854775808") }
        #expect(throws: JSONParseError.self) { try JSON.parse("1e400") }
        #expect(try JSON.parse("[0.0,1]").canonicalString == "[0.0,1]")
    }

    @Test func stringsAndEscapes() throws {
        #expect(try JSON.parse(#""a\"b\\c\/d\n\u00fc\ud83d\ude00""#) == .string("a\"b\\c/d\nü😀"))
        #expect(try JSON.parse(#"{"k":[true,false,null]}"#) == ["k": [true, false, nil]])
    }

    @Test func rejectsInvalidJSON() {
        for bad in ["{", "[1,]", "01", "1.", "\"\\x\"", "{\"a\" 1}", "tru", "1 2", "\"\u{01}\"", "\"\\ud800\"", "-"] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSON.parse(bad) }
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONParseError.self) { try JSON.parse(deep) }
    }
}

/// The wire codec over bytes (IntentBusCore, no libzmq): the same rules as `WireMessage`.
@Suite("Wire codec over bytes")
struct WireCodecTests {
    private func frames(_ parts: [String]) -> [[UInt8]] { parts.map { Array($0.utf8) } }

    @Test("a message round-trips through bytes, and decodes the same as through frames")
    func roundTrip() throws {
        let message = WireBytes(kind: .request, requestId: "r1", intent: "StatusIntent",
                                header: Array("{\"timeout_ms\":5}".utf8), body: Array("{}".utf8))
        let decoded = try WireBytes(frames: message.frames)
        #expect(decoded == message)
        let viaFrames = try WireMessage.decode(message.frames.map { Frame(bytes: $0) }[...])
        #expect(viaFrames.kind == .request && viaFrames.requestId == "r1" && viaFrames.intent == "StatusIntent")
        #expect(viaFrames.header.data == Data(message.header))
    }

    @Test("each rule of protocol §3 gives its error, with the same text as the frame decoder")
    func errors() throws {
        let cases: [([String], String)] = [
            ([], "empty message"),
            (["IB2", "REQUEST", "r", "X", "", ""], "protocol IB2 is not supported"),
            (["XYZ", "REQUEST", "r", "X", "", ""], "frame 0 must be \"IB1\""),
            (["IB1", "REQUEST", "r", "X", ""], "expected 6 frames"),
            (["IB1", "NOPE", "r", "X", "", ""], "frame 1 is not a known message kind"),
            (["IB1", "REQUEST", String(repeating: "r", count: 256), "X", "", ""], "frame 2 (request id)"),
            (["IB1", "REQUEST", "r", String(repeating: "x", count: 256), "", ""], "frame 3 (intent)"),
        ]
        for (parts, text) in cases {
            let bytesError = #expect(throws: WireError.self) { try WireBytes(frames: frames(parts)) }
            let frameError = #expect(throws: WireError.self) {
                try WireMessage.decode(parts.map { Frame($0) }[...])
            }
            #expect(bytesError?.message.contains(text) == true, "\(parts.prefix(2)): \(bytesError?.message ?? "")")
            #expect(bytesError?.message == frameError?.message)
        }
        var badUTF8 = frames(["IB1", "REQUEST", "r", "X", "", ""])
        badUTF8[2] = [0xff, 0xfe]
        #expect(throws: WireError.self) { try WireBytes(frames: badUTF8) }
    }

    @Test("kinds are matched on bytes, every kind and nothing else")
    func kinds() {
        for kind in MessageKind.allCases {
            let matched = Array(kind.rawValue.utf8).withUnsafeBytes { MessageKind(bytes: $0) }
            #expect(matched == kind)
        }
        for other in ["", "REQUESTS", "reply", "REPL"] {
            #expect(Array(other.utf8).withUnsafeBytes { MessageKind(bytes: $0) } == nil)
        }
    }
}
