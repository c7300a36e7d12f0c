import Foundation
import IntentBusCore

/// Coalesces the donations the host makes itself (docs/shortcuts.md, "Donations"): one
/// row per plugin, intent, client and parameters within a ten-minute window, holding a
/// count and the last time, instead of a row (an INSERT with two index entries) per
/// successful request. A batch of the writer adds to the window's row with one UPDATE.
///
/// Why a window and not one row per action for good: suggestions weigh every donation
/// by its age and its time of day (`SuggestionRanker`). A row counts `count` times at
/// its last time, so the weights stay those of the single donations to within the
/// window (ten minutes: under 0.1 % of the recency weight, at most 0.06 of the
/// time-of-day bonus).
///
/// Threading: owned by the shortcut writer's thread, like the store.
package final class DonationMerger {
    package init() {}

    /// The window, in milliseconds.
    static let window: Int64 = 600_000
    /// Rows remembered for an update, at most; past that the memory starts again (a
    /// forgotten row only means a second row for its window).
    static let maximumKnown = 4_096
    /// Longest parameters text remembered: a row with longer ones is not added to later.
    static let maximumKeyBytes = 1_024

    /// What one row stands for.
    struct Key: Hashable {
        let plugin: String
        let intent: String
        let client: String?
        let window: Int64
        /// The parameters' canonical JSON text.
        let parameters: String
    }

    /// One row's share of a batch.
    struct Merged {
        let key: Key
        let parameters: JSON
        var count: Int
        var at: Date
    }

    /// The rows this writer inserted, by what they stand for.
    private var known: [Key: Int64] = [:]

    /// The row `key` was stored in, when this writer knows it.
    func row(for key: Key) -> Int64? { known[key] }

    func remember(_ key: Key, row: Int64) {
        guard key.parameters.utf8.count <= Self.maximumKeyBytes else { return }
        if known.count >= Self.maximumKnown { known.removeAll(keepingCapacity: true) }
        known[key] = row
    }

    static func windowOf(_ date: Date) -> Int64 {
        let ms = ShortcutStore.milliseconds(date)
        return ms >= 0 ? ms / window : (ms - window + 1) / window
    }

    /// A batch grouped by row, oldest first: the same body bytes are parsed once; a body
    /// that is not a JSON object donates nothing (as before the rows were coalesced).
    static func merge(_ donations: [HostDonation]) -> [Merged] { merge(HostDonationBatch(donations)) }

    /// The same for a batch: a run of the same donation (plugin, intent, client, body bytes,
    /// window) is counted with a comparison, and hashed once (a steady stream of one
    /// request is one run; hashing each body was most of the writer's work per donation).
    static func merge(_ batch: HostDonationBatch) -> [Merged] {
        struct Raw: Hashable {
            let plugin: String, intent: String, client: String?, window: Int64, body: Data
        }
        var raw: [Raw: (count: Int, at: Date)] = [:]
        let items = batch.items
        var i = 0
        while i < items.count {
            let first = items[i]
            let window = windowOf(first.at)
            var (count, at, j) = (1, first.at, i + 1)
            while j < items.count, windowOf(items[j].at) == window, batch.sameDonation(first, items[j]) {
                count += 1
                at = max(at, items[j].at)
                j += 1
            }
            let k = Raw(plugin: first.plugin, intent: first.intent, client: first.client, window: window,
                        body: batch.withBody(first) { Data($0) })
            let seen = raw[k]
            raw[k] = ((seen?.count ?? 0) + count, max(seen?.at ?? at, at))
            i = j
        }
        var merged: [Key: Merged] = [:]
        for (k, seen) in raw {
            // A canonical body (what the SDKs and the CLI send) is its own canonical text.
            var canonical = false
            guard let parsed = try? k.body.withUnsafeBytes({ raw throws(JSONParseError) in try JSON.parse(bytes: raw, isCanonical: &canonical) }),
                  parsed.objectValue != nil else { continue }
            let text = canonical ? String(decoding: k.body, as: UTF8.self) : parsed.canonicalString
            let key = Key(plugin: k.plugin, intent: k.intent, client: k.client, window: k.window, parameters: text)
            if var m = merged[key] {
                m.count += seen.count
                m.at = max(m.at, seen.at)
                merged[key] = m
            } else {
                merged[key] = Merged(key: key, parameters: parsed, count: seen.count, at: seen.at)
            }
        }
        return merged.values.sorted {
            ($0.at, $0.key.intent, $0.key.parameters, $0.key.plugin) < ($1.at, $1.key.intent, $1.key.parameters, $1.key.plugin)
        }
    }
}
