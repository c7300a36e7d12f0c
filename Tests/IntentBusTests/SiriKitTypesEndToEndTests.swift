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
        #expect(reply.body["dialog"] == "Typen: count=3 ratio=2.5 flag=true day=2024-5-1 link=example.org color=green (2) tags=rot+blau owner=- guests= price=- place=- file=-")
        // A missing enum: resolveColor answers needsValue, and the answer is a case name.
        let talk = Conversation(["red"])
        let asked = try client.send("TypesIntent", parameters: ["count": 1], onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(asked.body["dialog"] == "Typen: count=1 ratio=-1.0 flag=- day=- link=- color=red (1) tags= owner=- guests= price=- place=- file=-")
    }

    @Test("Person, a list of people, CurrencyAmount, Placemark and File reach INPerson, INCurrencyAmount, CLPlacemark and INFile")
    func valueClasses() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let reply = try client.send("TypesIntent", parameters: [
            "color": "red",
            "owner": ["displayName": "Alex Meyer", "handle": "alex@meyer.example", "handleType": "emailAddress"],
            "guests": ["Sam", ["displayName": "Kim", "identifier": "kim-1"]],
            "price": "12.50 EUR",
            "place": ["name": "Hamburg", "latitude": 53.55, "longitude": 9.99],
            "attachment": ["filename": "notiz.txt", "data": .string(Data("hallo".utf8).base64EncodedString())],
        ]) { _ in nil }
        #expect(reply.body["dialog"] == "Typen: count=-1 ratio=-1.0 flag=- day=- link=- color=red (1) tags= owner=Alex Meyer/alex@meyer.example/emailAddress guests=Sam+Kim price=12.5 EUR place=Hamburg@53.55 file=notiz.txt:hallo")
    }

    @Test("A Placemark the user named as an address: resolvePlace's two Berlins are put to the user, the pick reaches handle with its coordinate")
    func placemarkDisambiguation() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["Berlin, Illinois"])
        let reply = try client.send("TypesIntent", parameters: ["color": "red", "place": "Berlin"], onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Berlin, Deutschland", "Berlin, Illinois"])
        #expect(reply.body["dialog"]?.stringValue?.contains("place=Berlin, Illinois@39.6 ") == true)
        // An address with no match is unsupported: asked again, and a known one goes through.
        let again = Conversation(["Hamburg"])
        let second = try client.send("TypesIntent", parameters: ["color": "red", "place": "Paris"], onEvent: again.handle)
        #expect(again.prompts.count == 1)
        #expect(second.body["dialog"]?.stringValue?.contains("place=Hamburg@53.55 ") == true)
    }

    @Test("dynamic options: the host asks provideOwnerOptionsCollection before asking for the owner, offers them, and the picked one reaches handle")
    func dynamicOptions() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["grace"])
        let reply = try client.send("TypesIntent", parameters: ["color": "red", "tags": ["owner?"]], onEvent: talk.handle)
        #expect(talk.prompts.map(\.parameter) == ["owner"])
        #expect(talk.prompts.first?.kind == "value")
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Ada Lovelace", "Grace Hopper"])
        #expect(talk.prompts.first?.options.compactMap { $0["subtitle"]?.stringValue } == ["Team", "Team"])
        #expect(talk.prompts.first?.raw["dynamic_options"] == true)
        #expect(reply.body["dialog"]?.stringValue?.contains("owner=Grace Hopper/grace@example.org/emailAddress ") == true, "\(reply.body)")
        // A value that is not an option is still a value: the plugin resolves it.
        let said = Conversation(["Linus"])
        let other = try client.send("TypesIntent", parameters: ["color": "red", "tags": ["owner?"]], onEvent: said.handle)
        #expect(other.body["dialog"]?.stringValue?.contains("owner=Linus/-/unknown ") == true, "\(other.body)")
    }

    @Test("String dynamic options: INObjectCollection<NSString> from provide…OptionsCollection, the completion form and the async form, each offered and picked")
    func stringDynamicOptions() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["chocolate", "fudge"])
        let reply = try client.send("TypesIntent", parameters: ["color": "red", "tags": ["flavour?", "topping?"]], onEvent: talk.handle)
        #expect(talk.prompts.map(\.parameter) == ["flavour", "topping"])
        #expect(talk.prompts.allSatisfy { $0.kind == "value" && $0.raw["dynamic_options"] == true })
        // The completion form's items: each string its own title and id.
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["vanilla", "chocolate"])
        #expect(talk.prompts.first?.options.compactMap { $0["id"]?.stringValue } == ["vanilla", "chocolate"])
        // The async form's sections: a section's title is its items' subtitle.
        #expect(talk.prompts.last?.options.compactMap { $0["title"]?.stringValue } == ["caramel", "fudge", "nuts"])
        #expect(talk.prompts.last?.options.compactMap { $0["subtitle"]?.stringValue } == ["Sauce", "Sauce", "Crunch"])
        #expect(reply.body["dialog"]?.stringValue?.hasSuffix(" flavour=chocolate topping=fudge") == true, "\(reply.body)")
    }

    @Test("a Duration reaches the generated property as NSNumber seconds, from seconds or from the host's duration text")
    func duration() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let seconds = try client.send("TypesIntent", parameters: ["color": "red", "length": 5400]) { _ in nil }
        #expect(seconds.body["dialog"]?.stringValue?.hasSuffix(" file=- length=5400.0s") == true, "\(seconds.body)")
        let text = try client.send("TypesIntent", parameters: ["color": "red", "length": "1h30m"]) { _ in nil }
        #expect(text.body["parameters"]?["length"] == 5400, "\(text.body)")
        #expect(text.body["dialog"]?.stringValue?.hasSuffix(" length=5400.0s") == true, "\(text.body)")
        let half = try client.send("TypesIntent", parameters: ["color": "red", "length": "250ms"]) { _ in nil }
        #expect(half.body["dialog"]?.stringValue?.hasSuffix(" length=0.25s") == true, "\(half.body)")
    }
}
