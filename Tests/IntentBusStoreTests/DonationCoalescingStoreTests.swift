import Foundation
import Testing
import IntentBusCore
@testable import IntentBusStore
@testable import PluginHost  // SuggestionRanker: the migrated rows rank as before (PluginHost comes with IntentBusTestSupport)
import IntentBusTestSupport

private let t0 = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30T08:00:00Z, a window's start

private func host(_ body: String, client: String? = "kim", intent: String = "StatusIntent", at: Date = t0) -> HostDonation {
    HostDonation(intent: intent, plugin: "balance", client: client, parameters: Data(body.utf8), at: at)
}

/// The host's own donations coalesced into one row per plugin, intent, client, parameters
/// and ten-minute window (DonationMerger), on both back ends; in the suite of the state
/// stores, whose PostgreSQL server they share.
extension StateStoreTests {
    @Test("host donations: one row per action and window with a count and the last time; updated across batches; deletes count what rows stand for",
          arguments: StateBackend.allCases)
    func coalescedDonations(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            let store = try fixture.shortcuts()
            defer { store.close() }
            let merger = DonationMerger()
            // The same parameters written two ways are one action; a body that is no
            // JSON object donates nothing.
            try store.donate(batch: [], host: [host(#"{"a":1}"#), host(#"{ "a" : 1 }"#, at: t0 + 30), host(#"{"a":1}"#, at: t0 + 10),
                                               host(#"{"a":1}"#, client: "ola"), host("[1]"), host("not json")], merger: merger)
            var rows = try store.donations()
            #expect(rows.count == 2)
            let kim = try #require(rows.first { $0.client == "kim" })
            #expect(kim.count == 3 && kim.at == t0 + 30 && kim.parameters == ["a": 1] && kim.source == .host)
            #expect(rows.first { $0.client == "ola" }?.count == 1)
            #expect(kim.json["count"] == 3)

            // A later batch in the same window adds to the row; the next window has its own.
            try store.donate(batch: [], host: [host(#"{"a":1}"#, at: t0 + 120), host(#"{"a":1}"#, at: t0 + 60)], merger: merger)
            try store.donate(batch: [], host: [host(#"{"a":1}"#, at: t0 + 601)], merger: merger)
            rows = try store.donations()
            #expect(rows.count == 3)
            #expect(rows.filter { $0.client == "kim" }.map(\.count).sorted() == [1, 5])
            #expect(rows.first { $0.client == "kim" && $0.count == 5 }?.at == t0 + 120)

            #expect(try store.deleteDonations(.all) == 7, "5 + 1 + 1 donations in 3 rows")
            // The row the merger remembers is gone: the next donation is a row of its own.
            try store.donate(batch: [], host: [host(#"{"a":1}"#, at: t0 + 602)], merger: merger)
            #expect(try store.donations().map(\.count) == [1])
        }
    }

    @Test("schema 2: a version-1 store migrates in place; its rows count once each, beside the coalesced ones",
          arguments: StateBackend.allCases)
    func donationsMigrate(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            if backend == .sqlite { try FileManager.default.createDirectory(atPath: fixture.location, withIntermediateDirectories: true) }
            let old = try fixture.raw(ShortcutStore.fileName)
            try StateSchema(store: "shortcuts", migrations: [StateSchema.shortcuts.migrations[0]]).migrate(old)
            try old.transaction {
                #expect(try old.schemaVersion(store: "shortcuts") == 1)
                for minutes in [1, 2] {
                    try old.run("""
                        INSERT INTO donations (intent, parameters, plugin, client, predict, source, at)
                        VALUES ('StatusIntent', '{"a":1}', 'balance', 'kim', 1, 'host', ?)
                        """, [.int(ShortcutStore.milliseconds(t0 + Double(minutes) * 60))])
                }
            }
            old.close()

            let store = try fixture.shortcuts()
            defer { store.close() }
            let before = try store.donations()
            #expect(before.map(\.count) == [1, 1])
            try store.donate(batch: [], host: [host(#"{"a":1}"#, at: t0 + 180), host(#"{"a":1}"#, at: t0 + 240)],
                             merger: DonationMerger())
            let after = try store.donations()
            #expect(after.map(\.count) == [2, 1, 1])
            let ranked = SuggestionRanker().rank(after, now: t0 + 300, limit: 5)
            #expect(ranked.count == 1 && ranked.first?.count == 4 && ranked.first?.last == t0 + 240)

            let raw = try fixture.raw(ShortcutStore.fileName)
            defer { raw.close() }
            #expect(try raw.transaction { try raw.schemaVersion(store: "shortcuts") } == 2)
        }
    }
}
