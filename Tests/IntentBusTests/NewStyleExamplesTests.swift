import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: the FocusFlow and Cart example plugins.
@Suite("New-style example plugins", .serialized)
struct NewStyleExamplesTests {
    @Test("FocusFlow (seed 003 as written): the German dialog, the host's range 5…180, projects by text through entities(matching:), English from en.lproj")
    func focusFlow() throws {
        let data = TempDir()
        defer { data.remove() }
        let host = try TestHost(TestManifest(.focusFlow(data: data.path)))
        defer { host.stop() }
        let client = try host.client()
        let start = try client.send("StartFocusSessionIntent") { _ in nil }
        #expect(start.body["dialog"] == "Fokus-Session für 25 Minuten gestartet.")
        var english = RequestOptions()
        english.locale = "en-GB"
        let startEnglish = try client.send("StartFocusSessionIntent", parameters: ["minutes": 50], options: english) { _ in nil }
        #expect(startEnglish.body["dialog"] == "Focus session started for 50 minutes.")
        // inclusiveRange: (5, 180) is checked by the host: the plugin is not asked.
        let tooLong = busError { _ = try client.send("StartFocusSessionIntent", parameters: ["minutes": 500]) { _ in nil } }
        #expect(tooLong?.code == .invalidParameters)
        #expect(tooLong?.details["parameter"] == "minutes")
        #expect(tooLong?.message.contains("must be within 5…180, got 500") == true, "\(tooLong?.message ?? "")")

        // "Website" matches two projects through entities(matching:): the SDK asks which one.
        var options: [String] = []
        let open = try client.send("OpenProjectIntent", parameters: ["project": "website"]) { event in
            guard case .prompt(let p) = event else { return nil }
            options = p.options.compactMap { $0["title"]?.stringValue }
            return ["value": p.options[1]["id"] ?? .null]
        }
        #expect(options == ["Website relaunch", "Website analytics"])
        #expect(open.body["dialog"] == "Website analytics geöffnet.")
        // The entity's id is its UUID, and its subtitle Apple's formatted due date.
        let value = try #require(open.body["value"])
        #expect(UUID(uuidString: value["id"]?.stringValue ?? "") != nil, "\(value)")
        let byId = try client.send("OpenProjectIntent", parameters: ["project": ["id": value["id"] ?? .null]]) { _ in nil }
        #expect(byId.body["dialog"] == "Website analytics geöffnet.")
        let relaunch = try client.control("ib.entities", ["entity": "ProjectEntity", "query": "matching", "text": "relaunch"])
        #expect(relaunch["results"]?.arrayValue?.first?["subtitle"]?.stringValue?.hasPrefix("Fällig ") == true, "\(relaunch)")
    }

    @Test("FocusFlow: EditProjectIntent asks to continue in the foreground and hops to the main actor; a no cancels")
    func focusFlowMainActor() throws {
        let data = TempDir()
        defer { data.remove() }
        let host = try TestHost(TestManifest(.focusFlow(data: data.path)), waitReady: ["focusflow"])
        defer { host.stop() }
        let client = try host.client()
        var asked: [Prompt] = []
        let started = Date()
        // The plugin's timeout would end a hung MainActor.run; it returns at once instead.
        let edited = try client.send("EditProjectIntent", parameters: ["project": "garden"]) { event in
            guard case .prompt(let p) = event else { return nil }
            asked.append(p)
            return ["value": true]
        }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(asked.map(\.kind) == ["confirmation"])
        #expect(asked.first?.dialog == "Continue in the app?")
        #expect(edited.status == "success")
        #expect(edited.body["continue_in_app"] == true)
        let declined = busError { _ = try client.send("EditProjectIntent", parameters: ["project": "garden"]) { _ in ["value": false] } }
        #expect(declined?.code == .cancelled, "\(String(describing: declined))")
        #expect(try host.plugin("focusflow")?["state"] == "ready", "the plugin did not crash or hang")
    }

    @Test("FocusFlow: project ids are stable across plugin restarts (persisted on disk)")
    func stableIds() throws {
        let data = TempDir()
        defer { data.remove() }
        var firstIds: [String] = []
        var createdId: String?
        do {
            let host = try TestHost(TestManifest(.focusFlow(data: data.path)), waitReady: ["focusflow"])
            defer { host.stop() }
            let all = try host.client().control("ib.entities", ["entity": "ProjectEntity", "query": "suggested"])
            firstIds = all["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            let created = try host.client().send("CreateProjectIntent", parameters: ["name": "Thesis"]) { _ in nil }
            createdId = created.body["value"]?["id"]?.stringValue
        }
        #expect(firstIds.count == 4)
        let id = try #require(createdId)
        let host = try TestHost(TestManifest(.focusFlow(data: data.path)), waitReady: ["focusflow"])
        defer { host.stop() }
        let again = try host.client().control("ib.entities", ["entity": "ProjectEntity", "query": "ids", "ids": .array((firstIds + [id]).map { .string($0) })])
        #expect(again["results"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == firstIds + [id])
        let open = try host.client().send("OpenProjectIntent", parameters: ["project": ["id": .string(id)]]) { _ in nil }
        #expect(open.body["dialog"] == "Thesis geöffnet.")
    }

    @Test("Cart: AddToCartIntent is a real legacy intent: resolve, confirm and handle, with response-code dialogs")
    func cartLegacyHalf() throws {
        let host = try TestHost(TestManifest(.cart()), waitReady: ["cart"])
        defer { host.stop() }
        let styles = try #require(try host.plugin("cart"))["styles"]
        #expect(styles?["AddToCartIntent"] == "legacy")
        #expect(styles?["ShowCartIntent"] == "new", "the migrated intent took the legacy name over")
        let client = try host.client()

        // The success code's format string, filled with the handler's response values;
        // the definition's default quantity (1) was applied.
        let added = try client.send("AddToCartIntent", parameters: ["customer": "ada", "item": "Mug"]) { _ in nil }
        #expect(added.status == "success")
        #expect(added.body["code"] == "success")
        #expect(added.body["code_value"] == 4)
        #expect(added.body["dialog"] == "Added 1× Mug. 3 lines in the cart.")
        #expect(added.body["concise_dialog"] == "Added Mug.")
        #expect(added.body["parameters"]?["quantity"] == 1)

        // A missing item is asked for with the definition's primary prompt.
        var talk = Conversation(["Tea"])
        let asked = try client.send("AddToCartIntent", parameters: ["customer": "ada"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.dialog) == ["What should I add?"])
        #expect(talk.prompts.first?.parameter == "item")
        #expect(asked.body["dialog"] == "Added 1× Tea. 4 lines in the cart.")

        // A large quantity is confirmed while resolving; "no" asks how many instead.
        talk = Conversation([false, "2"])
        let fewer = try client.send("AddToCartIntent", parameters: ["customer": "ada", "item": "Spoon", "quantity": 12],
                                    onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["confirmation", "value"])
        #expect(talk.prompts.map(\.dialog) == ["Add 12 of them?", "How many?"])
        #expect(fewer.body["dialog"] == "Added 2× Spoon. 5 lines in the cart.")

        // Out of stock: confirm refuses with the custom code, before anything is added.
        let refused = try client.send("AddToCartIntent", parameters: ["customer": "ada", "item": "Milk frother"]) { _ in nil }
        #expect(refused.status == "failure")
        #expect(refused.body["code"] == "outOfStock")
        #expect(refused.body["code_value"] == 100)
        #expect(refused.body["success"] == false)
        #expect(refused.body["dialog"] == "Sorry, Milk frother is out of stock.")
        let cart = try client.send("ShowCartIntent", parameters: ["customer": "ada"]) { _ in nil }
        #expect(cart.body["snippet"]?["items"]?.arrayValue?.compactMap { $0["item"]?.stringValue }
                == ["Espresso beans", "Paper filters", "Mug", "Tea", "Spoon"], "the frother was not added")

        // The definition's range is checked by the host before the plugin is asked.
        let tooMany = busError { _ = try client.send("AddToCartIntent", parameters: ["customer": "ada", "item": "Cup", "quantity": 120]) { _ in nil } }
        #expect(tooMany?.code == .invalidParameters)
        #expect(tooMany?.details["parameter"] == "quantity")
    }

    @Test("Cart: ShowCartIntent runs the migrated handler and reports includeSaved; CART_MIGRATION=off rolls it back to the legacy handler")
    func cartMigration() throws {
        let host = try TestHost(TestManifest(.cart()))
        defer { host.stop() }
        let client = try host.client()
        let added = try client.send("AddToCartIntent", parameters: ["customer": "ada", "item": "Mug"]) { _ in nil }
        #expect(added.body["code"] == "success")
        let shown = try client.send("ShowCartIntent", parameters: ["customer": "ada", "includeSaved": true]) { _ in nil }
        #expect(shown.body["dialog"] == "4 items in ada's cart, €34.30 in total.")
        #expect(shown.header["migrated_from"] == "ShowCartIntent")
        #expect(shown.header["handled_by"] == "ShowCartAppIntent")
        // includeSaved (Boolean in definitions/cart.yaml) has no counterpart: reported, not dropped silently.
        let unmapped = shown.header["unmapped_parameters"]?.arrayValue ?? []
        #expect(unmapped.map { $0["name"] } == ["includeSaved"])
        #expect(unmapped.first?["value"] == true)
        #expect(unmapped.first?["reason"] == "ShowCartAppIntent has no parameter \"includeSaved\"")
        #expect(host.logEventually(contains: "ShowCartIntent → ShowCartAppIntent: parameters not mapped: includeSaved"))
        // customer is a String on both sides: a number typed on a command line maps as its text.
        let numbered = try client.send("ShowCartIntent", parameters: ["customer": 42]) { _ in nil }
        #expect(numbered.body["dialog"] == "42's cart is empty.")
        #expect(numbered.header["unmapped_parameters"] == nil)
        // Without a customer the host asks first, with the new intent's dialog.
        var dialog = ""
        _ = try client.send("ShowCartIntent") { event in
            guard case .prompt(let p) = event else { return nil }
            dialog = p.dialog
            return ["value": "bob"]
        }
        #expect(dialog == "Whose cart?")

        // Rolled back: the legacy handler serves ShowCartIntent again through the
        // legacy flow, includeSaved included, with the definition's dialogs.
        let cart = TestManifest.Plugin.cart(intents: ["ShowCartIntent", "AddToCartIntent"]).env(["CART_MIGRATION": "off"])
        let rolledBack = try TestHost(TestManifest(cart), waitReady: ["cart"])
        defer { rolledBack.stop() }
        #expect(try rolledBack.plugin("cart")?["styles"]?["ShowCartIntent"] == "legacy")
        let legacyClient = try rolledBack.client()
        let legacy = try legacyClient.send("ShowCartIntent", parameters: ["customer": "ada", "includeSaved": true]) { _ in nil }
        #expect(legacy.body["code"] == "success")
        #expect(legacy.body["dialog"] == "Your cart: 2× Espresso beans, 1× Paper filters, saved: Milk frother")
        #expect(legacy.body["concise_dialog"] == "3 items")
        #expect(legacy.header["migrated_from"] == nil)
        let talk = Conversation(["bob"])
        let empty = try legacyClient.send("ShowCartIntent", onEvent: talk.handle)
        #expect(talk.prompts.map(\.dialog) == ["Whose cart?"])
        #expect(empty.body["code"] == "empty")
        #expect(empty.body["dialog"] == "Your cart is empty.")
        // The legacy definition knows nothing of the new intent's currency.
        let unknown = busError { _ = try legacyClient.send("ShowCartIntent", parameters: ["customer": "ada", "currency": "usd"]) { _ in nil } }
        #expect(unknown?.code == .invalidParameters)
    }

    @Test("Chat: a new-style INSendMessageIntent: sends with a message id, asks for what is missing, confirms long messages")
    func chat() throws {
        let host = try TestHost(TestManifest(.chat().named("Chat")), waitReady: ["chat"])
        defer { host.stop() }
        #expect(try host.plugin("chat")?["styles"]?["INSendMessageIntent"] == "new")
        let client = try host.client()

        let sent = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": "Hi"]) { _ in nil }
        #expect(sent.plugin == "chat")
        #expect(sent.body["dialog"] == "Chat: sent “Hi” to Alex.")
        #expect(sent.body["value"] == "chat-1")
        #expect(sent.body["snippet"]?["sent"] == true)

        // Required parameters without a value are asked before perform(), in order.
        // (recipients is optional, for the deprecated singular recipient: perform() asks.)
        var talk = Conversation(["See you at 8", "Sam"])
        let asked = try client.send("INSendMessageIntent", onEvent: talk.handle)
        #expect(talk.prompts.map(\.dialog) == ["What do you want to say?", "Who should get the message?"])
        #expect(talk.prompts.map(\.parameter) == ["content", "recipients"])
        #expect(talk.prompts.last?.raw["multiple"] == true)
        #expect(asked.body["dialog"] == "Chat: sent “See you at 8” to Sam.")
        #expect(asked.body["value"] == "chat-2")

        // Blank content: perform() asks again (needs-value) and starts over with the answer.
        talk = Conversation(["Hello"])
        let blank = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": "   "], onEvent: talk.handle)
        #expect(talk.prompts.map(\.parameter) == ["content"])
        #expect(blank.body["dialog"] == "Chat: sent “Hello” to Alex.")

        // 280 characters go without a question; more are confirmed mid-perform.
        let limit = String(repeating: "a", count: 280)
        talk = Conversation()
        let atLimit = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": .string(limit)], onEvent: talk.handle)
        #expect(talk.prompts.isEmpty)
        #expect(atLimit.body["snippet"]?["characters"] == 280)
        let long = String(repeating: "b", count: 300)
        talk = Conversation([false])
        let declined = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": .string(long)], onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["confirmation"])
        #expect(talk.prompts.first?.dialog == "That message is 300 characters long, more than 280. Send it to Alex anyway?")
        #expect(declined.body["dialog"] == "Chat: nothing sent.")
        #expect(declined.body["value"] == nil)
        #expect(declined.body["snippet"]?["sent"] == false)
        talk = Conversation([true])
        let confirmed = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": .string(long)], onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(confirmed.body["snippet"]?["characters"] == 300)
        #expect(confirmed.body["value"] == "chat-5", "the declined message got no id")

        // Apple's recipients list.
        let two = try client.send("INSendMessageIntent", parameters: ["recipients": ["Alex", "Sam"], "content": "Hi"]) { _ in nil }
        #expect(two.body["dialog"] == "Chat: sent “Hi” to Alex, Sam.")

        // Unknown parameters are refused by the host, naming the parameter.
        let unknown = busError { _ = try client.send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": "Hi", "subject": "x"]) { _ in nil } }
        #expect(unknown?.code == .invalidParameters)
        #expect(unknown?.details["parameter"] == "subject")
    }
}
