import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The legacy example plugins end to end: the FONIC balance plugin and the messenger.
@Suite("Legacy examples end to end", .serialized)
struct LegacyExamplesEndToEndTests {
    @Test("the FONIC balance plugin answers with its German format strings")
    func balancePlugin() throws {
        let host = try TestHost(TestManifest(
            .balance().extra("IntentsRestrictedWhileLocked: [SwitchContractIntent]"),
            .balance("loggedout").with { $0.intents = ["StatusIntent"] }.env(["BALANCE_LOGGED_OUT": "1"]),
            host: .init(clientCredential: "s3cret")))
        defer { host.stop() }
        let client = try host.client()
        var options = RequestOptions()
        options.plugin = "balance"
        options.credential = "s3cret"
        var status = try client.send("StatusIntent", options: options) { _ in nil }
        #expect(status.body["code"] == "successDataAndPhone")
        #expect(status.body["dialog"] == "Sie haben 11,0 GB von 11,0 GB, 200 von 300 Freiminuten und 1,21 € Guthaben.")

        // "0176" matches two contracts: which one?
        let talk = Conversation(["geschaeft"])
        let switched = try client.send("SwitchContractIntent", parameters: ["contract": "0176"], options: options, onEvent: talk.handle)
        #expect(talk.prompts.first?.dialog == "Es gibt 2 Verträge, die zu ‘0176’ passen. Welchen meinen Sie?")
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Privat", "Geschäftlich"])
        #expect(switched.body["dialog"] == "Vertrag Geschäftlich (0176 7654321) ist jetzt aktiv.")
        status = try client.send("StatusIntent", options: options) { _ in nil }
        #expect(status.body["code"] == "successData")
        #expect(status.body["dialog"] == "Sie haben 2,5 GB von 5,0 GB und 12,34 € Guthaben.")

        options.plugin = "loggedout"
        let missing = try client.send("StatusIntent", options: options) { _ in nil }
        #expect(missing.status == "failure")
        #expect(missing.body["code"] == "userMissing")
        #expect(missing.body["dialog"] == "Bitte loggen Sie sich in der App ein und speichern Sie Ihre Zugangsdaten.")
    }

    @Test("the messenger: three Alexes disambiguate, an empty message needs a value, progress while sending")
    func messenger() throws {
        let host = try TestHost(TestManifest(.messenger()))
        defer { host.stop() }
        let client = try host.client()
        // The old singular parameter is still taken, as a list of one, with a notice.
        var talk = Conversation(["alex-schmidt", "See you at 8"])
        var reply = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex"], onEvent: talk.handle)
        #expect(reply.header["deprecations"]?.arrayValue?.first?.stringValue?.contains("'recipient' is deprecated; it was taken as 'recipients'") == true)
        #expect(talk.prompts.map(\.kind) == ["disambiguation", "value"])
        #expect(talk.prompts[0].dialog == "There are 3 people matching ‘Alex’. Which one?")
        #expect(talk.prompts[0].options.compactMap { $0["title"]?.stringValue } == ["Alex Meyer", "Alex Schmidt", "Alexandra Braun"])
        #expect(talk.prompts[1].parameter == "content")
        #expect(talk.prompts[1].dialog == "What do you want to say?")
        #expect(talk.progress.count == 2)
        #expect(reply.body["code"] == "success")
        #expect(reply.body["code_value"] == 3)  // INSendMessageIntentResponseCode.success
        #expect(reply.body["dialog"] == "Sent to Alex Schmidt.")
        #expect(reply.body["parameters"]?["recipients"]?.arrayValue?.first?["identifier"] == "alex-schmidt")
        var count = try client.send("MessageStatusIntent") { _ in nil }
        #expect(count.body["dialog"] == "You sent 1 messages today.")

        // Two recipients, each resolved on its own: only the ambiguous ones are asked
        // about, one at a time and in order, each question naming its item.
        talk = Conversation(["alex-meyer", "alex-schmidt"])
        reply = try client.send("INSendMessageIntent",
                                parameters: ["recipients": ["Alex", "Sam", "Alex"], "content": "Hi all"], onEvent: talk.handle)
        #expect(reply.header["deprecations"] == nil)
        #expect(talk.prompts.map(\.kind) == ["disambiguation", "disambiguation"])
        #expect(talk.prompts.map { $0.raw["item"] } == [0, 2])
        #expect(talk.prompts.map { $0.raw["items"] } == [3, 3])
        #expect(talk.prompts[0].dialog == "There are 3 people matching ‘Alex’. Which one?")
        #expect(talk.prompts[0].raw["multiple"] == nil, "a question about one item takes one answer")
        let people = try #require(reply.body["parameters"]?["recipients"]?.arrayValue)
        #expect(people.map { $0["identifier"] } == ["alex-meyer", "sam-lee", "alex-schmidt"])
        #expect(people.map { $0["handleType"] } == ["phoneNumber", "phoneNumber", "emailAddress"])
        #expect(reply.body["dialog"] == "Sent to Alex Meyer, Sam Lee, Alex Schmidt.")

        // An answer that is not one of the options asks about the same item again.
        talk = Conversation(["nobody", "alexandra-braun"])
        reply = try client.send("INSendMessageIntent", parameters: ["recipients": ["Sam", "Alex"], "content": "Hi"], onEvent: talk.handle)
        #expect(talk.prompts.map { $0.raw["item"] } == [1, 1])
        #expect(talk.prompts[1].raw["problem"]?.stringValue?.contains("'nobody' is not one of the options") == true)
        #expect(reply.body["dialog"] == "Sent to Sam Lee, Alexandra Braun.")
        count = try client.send("MessageStatusIntent") { _ in nil }
        #expect(count.body["dialog"] == "You sent 3 messages today.")
    }
}
