import Foundation
import IntentBusCore

extension ShortcutStore {
    /// Records `donation` and drops the oldest beyond `maximumDonations`. Returns it
    /// with its row id.
    @discardableResult
    package func donate(_ donation: Donation) throws(ShortcutStoreError) -> Donation {
        try access("donate") { db in
            try db.transaction {
                var stored = donation
                stored.id = try db.query(Self.insert, Self.values(donation)) { $0.int(0) }.first ?? 0
                try db.run("DELETE FROM donations WHERE id <= ?", [.int(stored.id - Int64(Self.maximumDonations))])
                return stored
            }
        }
    }

    /// Records a batch in one transaction (one fsync): `batch` as it is, and the host's
    /// own donations coalesced (`DonationMerger`: added to the row of their window that
    /// `merger` knows, else a new row); then drops the oldest rows beyond
    /// `maximumDonations`.
    package func donate(batch: [Donation], host: [HostDonation] = [], merger: DonationMerger? = nil) throws(ShortcutStoreError) {
        try donate(batch: batch, host: HostDonationBatch(host), merger: merger)
    }

    /// The same with the host's donations as the router handed them over (`HostDonationBatch`).
    package func donate(batch: [Donation], host: HostDonationBatch, merger: DonationMerger? = nil) throws(ShortcutStoreError) {
        let merged = host.isEmpty ? [] : DonationMerger.merge(host)
        try access("donate") { db in
            try db.transaction {
                var last: Int64 = 0
                for donation in batch { last = try db.query(Self.insert, Self.values(donation)) { $0.int(0) }.first ?? last }
                for m in merged {
                    let at = StateValue.int(Self.milliseconds(m.at))
                    if let row = merger?.row(for: m.key),
                       try db.run(Self.addTo, [.int(Int64(m.count)), at, at, .int(row)]) > 0 { continue }
                    let donation = Donation(intent: m.key.intent, parameters: m.parameters, plugin: m.key.plugin,
                                            client: m.key.client, source: .host, at: m.at, count: m.count)
                    // The key's parameters are the canonical text (`DonationMerger.merge`).
                    guard let id = try db.query(Self.insert, Self.values(donation, parametersText: m.key.parameters), row: { $0.int(0) }).first
                    else { continue }
                    merger?.remember(m.key, row: id)
                    last = max(last, id)
                }
                if last > 0 { try db.run("DELETE FROM donations WHERE id <= ?", [.int(last - Int64(Self.maximumDonations))]) }
            }
        }
    }

    /// Adds a batch's donations to a coalesced row (standard SQL: both back ends).
    private static let addTo = "UPDATE donations SET times = times + ?, at = CASE WHEN at < ? THEN ? ELSE at END WHERE id = ?"

    /// `RETURNING id` rather than `last_insert_rowid()`: the same SQL for both back ends.
    private static let insert = """
        INSERT INTO donations (identifier, group_id, intent, parameters, plugin, client, title, phrase, predict, source, at, times)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
        """

    /// `parametersText`: the parameters' canonical text, when the caller has it.
    private static func values(_ donation: Donation, parametersText: String? = nil) -> [StateValue] {
        [text(donation.identifier), text(donation.group), .text(donation.intent),
         .text(parametersText ?? donation.parameters.canonicalString), text(donation.plugin), text(donation.client),
         text(donation.title), text(donation.phrase), .int(donation.eligibleForPrediction ? 1 : 0),
         .text(donation.source.rawValue), .int(milliseconds(donation.at)), .int(Int64(donation.count))]
    }

    /// Donations, newest first; `plugin` narrows them to one plugin's.
    package func donations(plugin: String? = nil) throws(ShortcutStoreError) -> [Donation] {
        try access("list donations") { db in
            let filter = plugin == nil ? "" : "WHERE plugin = ?"
            return try db.query("""
                SELECT id, identifier, group_id, intent, parameters, plugin, client, title, phrase, predict, source, at, times
                FROM donations \(filter) ORDER BY id DESC
                """, plugin.map { [.text($0)] } ?? []) { row in
                Donation(id: row.int(0), identifier: row.text(1), group: row.text(2), intent: row.text(3) ?? "",
                         parameters: (try? JSON.parse(row.text(4) ?? "{}")) ?? .object([:]), plugin: row.text(5),
                         client: row.text(6), title: row.text(7), phrase: row.text(8), eligibleForPrediction: row.int(9) != 0,
                         source: Donation.Source(rawValue: row.text(10) ?? "") ?? .host, at: Self.date(row.int(11)),
                         count: Int(clamping: max(1, row.int(12))))
            }
        }
    }

    /// Deletes the donations `selector` picks, only `plugin`'s when given (a plugin
    /// deletes its own), only `client`'s when given (a CURVE client deletes its own).
    /// Returns how many donations were removed (a coalesced row counts what it stands for).
    package func deleteDonations(_ selector: DonationSelector, plugin: String? = nil, client: String? = nil) throws(ShortcutStoreError) -> Int {
        var conditions: [String] = []
        var values: [StateValue] = []
        switch selector {
        case .identifiers(let ids):
            guard !ids.isEmpty else { return 0 }
            conditions.append("identifier IN (\(ids.map { _ in "?" }.joined(separator: ", ")))")
            values += ids.map { .text($0) }
        case .group(let group):
            conditions.append("group_id = ?")
            values.append(.text(group))
        case .plugin(let id):
            conditions.append("plugin = ?")
            values.append(.text(id))
        case .all:
            break
        }
        if let plugin {
            conditions.append("plugin = ?")
            values.append(.text(plugin))
        }
        if let client {
            conditions.append("client = ?")
            values.append(.text(client))
        }
        let clause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try access("delete donations") { db in
            try db.transaction {
                Int(clamping: try db.query("DELETE FROM donations" + clause + " RETURNING times", values) { max(1, $0.int(0)) }.reduce(0, +))
            }
        }
    }

    private static func text(_ value: String?) -> StateValue { value.map { .text($0) } ?? .null }
}
