import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport
import IntentBusStore

private func withStore<R>(_ body: (ShortcutStore, String) throws -> R) throws -> R {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ShortcutStoreTests-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let store = try ShortcutStore(directory: dir)
    defer { store.close() }
    return try body(store, dir)
}

private let t0 = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30T08:00:00Z

private func donation(_ intent: String, _ params: JSON = [:], at: Date, identifier: String? = nil, group: String? = nil,
                      plugin: String? = "p", predict: Bool = true) -> Donation {
    Donation(identifier: identifier, group: group, intent: intent, parameters: params, plugin: plugin, client: nil,
             title: nil, phrase: nil, eligibleForPrediction: predict, source: .client, at: at)
}

@Suite("Shortcuts: store and suggestions")
struct ShortcutStoreTests {
    @Test("user phrases are stored by their words, replaced on edit, deleted; they survive reopening")
    func userPhrases() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ShortcutStoreTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let store = try ShortcutStore(directory: dir)
            try store.save(UserPhrase(phrase: "Warenkorb zeigen", intent: "ShowCartIntent", parameters: ["customer": "ada"],
                                      plugin: nil, client: nil, createdAt: t0, updatedAt: t0))
            store.close()
        }
        let store = try ShortcutStore(directory: dir)
        defer { store.close() }
        let found = try #require(try store.userPhrase(key: PhraseText.normalised("warenkorb, ZEIGEN!")))
        #expect(found.intent == "ShowCartIntent")
        #expect(found.parameters == ["customer": "ada"])
        try store.save(UserPhrase(phrase: "Mein Warenkorb", intent: "ShowCartIntent", parameters: ["customer": "bob"],
                                  plugin: "cart", client: nil, createdAt: t0, updatedAt: t0), replacing: found.key)
        #expect(try store.userPhrases().map(\.phrase) == ["Mein Warenkorb"])
        #expect(try store.deleteUserPhrase(key: "mein warenkorb"))
        #expect(try !store.deleteUserPhrase(key: "mein warenkorb"))
    }

    @Test("the writer thread: donations commit in order with work, and stop() finishes the queue")
    func writer() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ShortcutStoreTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let events = LogBuffer()
        let done = DispatchSemaphore(value: 0)
        let writer = ShortcutWriter(store: try ShortcutStore(directory: dir), logger: Logger(label: "test", minimumLevel: .error)) { event in
            if case .extensionFinished(let id, let result) = event, case .success(let body) = result {
                events.append(Data("\(id):\(body.canonicalString)".utf8))
                done.signal()
            }
        }
        for i in 0..<50 { writer.submit(.donate(donation("I\(i)", at: t0, group: "g"))) }
        writer.submit(.work(id: 7, run: { store in .success(.int(Int64((try? store.donations().count) ?? -1))) }))
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(events.text == "7:50", "the work saw every donation submitted before it")
        writer.submit(.deleteDonations(.group("g"), plugin: "p"))
        for i in 0..<5 { writer.submit(.donate(donation("J\(i)", at: t0))) }
        writer.stop()
        #expect(!writer.submit(.donate(donation("late", at: t0))), "a stopped writer takes nothing")
        let reopened = try ShortcutStore(directory: dir)
        defer { reopened.close() }
        #expect(try reopened.donations().map(\.intent).sorted() == ["J0", "J1", "J2", "J3", "J4"])
    }

    @Test("a corrupt store is moved aside and an empty one takes its place")
    func corrupt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ShortcutStoreTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("this is not a database, just words".utf8).write(to: URL(fileURLWithPath: dir + "/" + ShortcutStore.fileName))
        let store = try ShortcutStore(directory: dir)
        defer { store.close() }
        #expect(store.recoveryNote?.contains("moved to") == true)
        try store.donate(donation("A", at: t0))
        #expect(try store.donations().count == 1)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".corrupt-") }
        #expect(!aside.isEmpty)
    }

    @Test("donations: deleted by identifier, by group, by plugin; bounded, oldest dropped first")
    func donations() throws {
        try withStore { store, _ in
            try store.donate(donation("A", at: t0, identifier: "a1", group: "g1"))
            try store.donate(donation("B", at: t0, identifier: "b1", group: "g1"))
            try store.donate(donation("C", at: t0, identifier: "c1", group: "g2"))
            try store.donate(donation("D", at: t0, plugin: "other"))
            #expect(try store.deleteDonations(.group("g1")) == 2)
            #expect(try store.donations().map(\.intent) == ["D", "C"])
            #expect(try store.deleteDonations(.identifiers(["c1", "zz"])) == 1)
            #expect(try store.deleteDonations(.plugin("p")) == 0)
            #expect(try store.deleteDonations(.all, plugin: "other") == 1)
            #expect(try store.donations().isEmpty)

            for i in 0..<(ShortcutStore.maximumDonations + 5) {
                try store.donate(donation("N\(i)", at: t0))
            }
            let kept = try store.donations()
            #expect(kept.count == ShortcutStore.maximumDonations)
            #expect(kept.last?.intent == "N5")
        }
    }

    @Test("suggestions rank by frequency, recency and time of day; ineligible ones never appear")
    func ranking() {
        var ranker = SuggestionRanker()
        ranker.timeZone = TimeZone(identifier: "UTC")!
        let hour: TimeInterval = 3600, day: TimeInterval = 86_400
        // A scripted week: the cart every morning at 8, the balance on the last two
        // evenings at 20:00, the weather on two older mornings, a private action marked
        // ineligible.
        var donations: [Donation] = []
        for d in 1...5 { donations.append(donation("ShowCartIntent", ["customer": "ada"], at: t0 - Double(d) * day)) }
        donations.append(donation("StatusIntent", at: t0 - 1 * day + 12 * hour))
        donations.append(donation("StatusIntent", at: t0 - 2 * day + 12 * hour))
        donations.append(donation("WeatherIntent", at: t0 - 3 * day))
        donations.append(donation("WeatherIntent", at: t0 - 4 * day))
        donations.append(donation("SecretIntent", at: t0 - 1 * hour, predict: false))
        // At 8:00 the morning habits lead: the cart (most often), then the weather.
        let morning = ranker.rank(donations, now: t0, limit: 5)
        #expect(morning.map(\.intent) == ["ShowCartIntent", "WeatherIntent", "StatusIntent"])
        #expect(morning[0].count == 5)
        #expect(morning[0].parameters == ["customer": "ada"])
        // At 20:00 the time of day turns the balance and the weather round.
        let evening = ranker.rank(donations, now: t0 + 12 * hour, limit: 5)
        #expect(evening.map(\.intent) == ["ShowCartIntent", "StatusIntent", "WeatherIntent"])
        // Recency: a month later, the old habit weighs less than a fresh single donation.
        let later = ranker.rank(donations + [donation("NewIntent", at: t0 + 30 * day)], now: t0 + 30 * day + hour, limit: 1)
        #expect(later.map(\.intent) == ["NewIntent"])
        #expect(!morning.contains { $0.intent == "SecretIntent" })
    }

    @Test("one activity: the same identifier across a migration, and unidentified donations of it, form one suggestion")
    func grouping() {
        let ada: JSON = ["customer": "ada"]
        let list = [donation("ShowCartIntent", ada, at: t0, identifier: "show-cart-ada"),
                    donation("ShowCartAppIntent", ada, at: t0 - 60, identifier: "show-cart-ada"),
                    donation("ShowCartIntent", ada, at: t0 - 120),
                    donation("ShowCartIntent", ["customer": "bob"], at: t0 - 180)]
        let ranked = SuggestionRanker().rank(list, now: t0, limit: 5)
        #expect(ranked.map(\.count) == [3, 1])
        #expect(ranked[0].identifier == "show-cart-ada")
        #expect(ranked[1].parameters == ["customer": "bob"])
    }
}
