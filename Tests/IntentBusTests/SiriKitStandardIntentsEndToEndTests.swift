import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The standard intents' classes (INSendMessageIntent and its handling protocol) served
/// by a real Intents extension, the SiriKitTest plugin, through the real host.
@Suite("SiriKit extensions end to end: standard intents", .serialized)
struct SiriKitStandardIntentsEndToEndTests {
    @Test("INSendMessageIntent: seed 001's handler; resolveRecipients answers one INSendMessageRecipientResolutionResult per recipient")
    func sendMessage() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        // "Alex" fits two contacts: only that recipient is put to the user, with handles.
        let talk = Conversation(["alex-schmidt"])
        let sent = try client.send("INSendMessageIntent", parameters: ["recipients": ["Alex", "Sam"], "content": "Bin gleich da"],
                                   onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(talk.prompts.first?.kind == "disambiguation")
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Alex Meyer", "Alex Schmidt"])
        #expect(talk.prompts.first?.options.compactMap { $0["subtitle"]?.stringValue } == ["+49 176 1111111", "alex@schmidt.example"])
        #expect(sent.body["code"] == "success")
        // Apple's response names no recipient: the module fills the host's ${recipientName} in.
        #expect(sent.body["dialog"] == "Sent to Alex Schmidt, Sam Lee.")
    }

    @Test("INSendMessageIntent: no content is the seed's needsValue, an unknown recipient unsupported(forReason: .noAccount)")
    func sendMessageQuestions() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["Hallo"])
        let sent = try client.send("INSendMessageIntent", parameters: ["recipients": ["Sam"], "content": ""], onEvent: talk.handle)
        #expect(talk.prompts.map(\.parameter) == ["content"])
        #expect(talk.prompts.first?.dialog == "What do you want to say?")
        #expect(sent.body["dialog"] == "Sent to Sam Lee.")
        let unknown = Conversation(["sam-lee"])
        let again = try client.send("INSendMessageIntent", parameters: ["recipients": ["Zoe"], "content": "Hallo"], onEvent: unknown.handle)
        #expect(unknown.prompts.first?.raw["unsupported"]?["reason"] == "noAccount")
        #expect(again.body["dialog"] == "Sent to Sam Lee.")
    }

    @Test("INStartWorkoutIntent in the async forms: \"run\" is disambiguated, and handle reads the goal, its unit, the location and isOpenEnded typed")
    func startWorkout() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["run-indoor"])
        let started = try client.send("INStartWorkoutIntent", parameters: [
            "workoutName": "run", "goalValue": 5, "workoutGoalUnitType": "mile", "workoutLocationType": "indoor", "isOpenEnded": false,
        ], onEvent: talk.handle)
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Outdoor Run", "Indoor Run"])
        #expect(started.body["code"] == "success")
        #expect(started.body["dialog"] == "Workout started.")
        // Another unit: the handler sees it, and answers its own failure code.
        let other = try client.send("INStartWorkoutIntent", parameters: [
            "workoutName": "Indoor", "goalValue": 5, "workoutGoalUnitType": "meter", "workoutLocationType": "indoor", "isOpenEnded": false,
        ]) { _ in nil }
        #expect(other.body["code"] == "failureNoMatchingWorkout")
    }

    @Test("INSearchForPhotosIntent: the date as an INDateComponentsRange, attributes as INPhotoAttributeOptions, people, a placemark; searchResultsCount in the dialog")
    func searchForPhotos() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let found = try client.send("INSearchForPhotosIntent", parameters: [
            "dateCreated": "2024-05-07", "includedAttributes": ["selfie", "video"], "excludedAttributes": ["screenshot"],
            "peopleInPhoto": ["Alex", "Sam", "Kim"], "locationCreated": ["identifier": "hh", "displayString": "Hamburg", "latitude": 53.55, "longitude": 9.99],
        ]) { _ in nil }
        // 1000 × 7 (the day) + 100 × 2 (selfie, video) + 10 × 3 (people) + 1 (a coordinate) - 1 (screenshot excluded)
        #expect(found.body["code"] == "continueInApp")
        #expect(found.body["dialog"] == "Found 7230 photos.")
    }

    @Test("INRequestRideIntent: pickup resolved to a CLPlacemark with a coordinate, party size, INPaymentMethod, pickup time; the response's pickup time in the dialog")
    func requestRide() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let booked = try client.send("INRequestRideIntent", parameters: [
            "pickupLocation": "Hauptbahnhof", "dropOffLocation": ["identifier": "ber", "displayString": "Flughafen BER"], "partySize": 3,
            "paymentMethod": ["identifier": "visa", "displayString": "Visa", "name": "Visa"], "scheduledPickupTime": "2024-05-07T18:30:00Z",
        ]) { _ in nil }
        #expect(booked.body["code"] == "success")
        #expect(booked.body["dialog"] == "Your ride is booked; pickup at Berlin Hauptbahnhof (52.525) → Flughafen BER, 3 people, Visa •••• 4242, 18:30.")
        // The host's range check still applies before any handler runs.
        let error = #expect(throws: ClientError.self) {
            _ = try client.send("INRequestRideIntent", parameters: ["pickupLocation": "Hauptbahnhof", "dropOffLocation": "BER", "partySize": 12]) { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error"); return }
        #expect(e.code == .invalidParameters)
    }
}
