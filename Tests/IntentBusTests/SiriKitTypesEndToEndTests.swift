import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Each parameter type's generated property, through the same host.
@Suite("SiriKit extensions end to end: parameter types", .serialized)
struct SiriKitTypesEndToEndTests {
    @Test("Integer, Decimal, Boolean, Date, URL, enum and a String list reach the generated properties typed")
    func types() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let reply = try client.send("TypesIntent", parameters: [
            "count": 3, "ratio": 2.5, "flag": true, "day": "2024-05-01", "link": "https://example.org/a",
            "color": "green", "tags": ["rot", "blau"],
        ]) { _ in nil }
        #expect(reply.body["dialog"] == "Typen: count=3 ratio=2.5 flag=true day=2024-5-1 link=example.org color=green (2) tags=rot+blau")
        // A missing enum: resolveColor answers needsValue, and the answer is a case name.
        let talk = Conversation(["red"])
        let asked = try client.send("TypesIntent", parameters: ["count": 1], onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(asked.body["dialog"] == "Typen: count=1 ratio=-1.0 flag=- day=- link=- color=red (1) tags=")
    }
}
