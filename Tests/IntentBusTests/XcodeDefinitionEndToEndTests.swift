import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The FONIC balance plugin on its Xcode definition (definitions/FONIC/de.lproj/
/// Intents.intentdefinition, English in en.lproj/Intents.strings), through a real host:
/// the client's `locale` header picks the language of the dialogs.
@Suite("Xcode definitions end to end", .serialized)
struct XcodeDefinitionEndToEndTests {
    @Test("StatusIntent answers in German by default and in English for locale en_US; prompts too")
    func localizedDialogs() throws {
        let host = try TestHost(TestManifest(.balance().with {
            $0.definitions = [Products.file("definitions/FONIC/de.lproj/Intents.intentdefinition")]
        }))
        defer { host.stop() }
        let client = try host.client()
        let german = try client.send("StatusIntent") { _ in nil }
        #expect(german.body["code"] == "successDataAndPhone")
        #expect(german.body["dialog"] == "Sie haben 11,0 GB von 11,0 GB, 200 von 300 Freiminuten und 1,21 € Guthaben.")
        var options = RequestOptions()
        options.locale = "en_US"
        let english = try client.send("StatusIntent", options: options) { _ in nil }
        #expect(english.body["code"] == "successDataAndPhone")
        #expect(english.body["dialog"] == "You have 11,0 GB of 11,0 GB, 200 of 300 Freiminuten and 1,21 € credit.")
        // A prompt comes from the translation too; a locale without a table keeps German.
        // Declining the confirmation asks for the amount again, in English too.
        let talk = Conversation(["no"])
        #expect(throws: (any Error).self) {
            _ = try client.send("TopUpIntent", parameters: ["amount": 60], options: options, onEvent: talk.handle)
        }
        #expect(talk.prompts.map(\.dialog) == ["Really top up €60?", "How many euros do you want to top up?"])
        options.locale = "ja_JP"
        let fallback = try client.send("StatusIntent", options: options) { _ in nil }
        #expect(fallback.body["dialog"] == german.body["dialog"])
    }
}
