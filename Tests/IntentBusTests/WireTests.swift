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
