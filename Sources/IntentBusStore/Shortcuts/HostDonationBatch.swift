import Foundation

/// The host's own donations of one round of the router's loop, handed to the writer's
/// thread as one job (`ShortcutJob.hostDonations`): the request bodies back to back in one
/// buffer, beside one small record each, instead of a `HostDonation` (and its `Data`) and
/// a queue operation per successful request (docs/performance.md, issue 30 session 2).
/// The writer merges them as it merges `HostDonation`s (`DonationMerger.merge`), in order.
package struct HostDonationBatch: Sendable {
    package struct Item: Sendable {
        package let intent: String
        package let plugin: String
        package let client: String?
        package let at: Date
        /// The body's bytes in `bytes`.
        let start: Int
        let count: Int
    }

    package private(set) var items: [Item] = []
    private var bytes: [UInt8] = []

    package init() {}

    package init(_ donations: [HostDonation]) {
        for d in donations {
            d.parameters.withUnsafeBytes { append(intent: d.intent, plugin: d.plugin, client: d.client, body: $0, at: d.at) }
        }
    }

    package var isEmpty: Bool { items.isEmpty }
    package var count: Int { items.count }

    package mutating func append(intent: String, plugin: String, client: String?, body: UnsafeRawBufferPointer, at: Date) {
        items.append(Item(intent: intent, plugin: plugin, client: client, at: at, start: bytes.count, count: body.count))
        bytes.append(contentsOf: body)
    }

    /// Appends every donation of `other`, after these.
    package mutating func append(_ other: HostDonationBatch) {
        let offset = bytes.count
        bytes.append(contentsOf: other.bytes)
        items.append(contentsOf: other.items.map {
            Item(intent: $0.intent, plugin: $0.plugin, client: $0.client, at: $0.at, start: $0.start + offset, count: $0.count)
        })
    }

    /// Hands `body` the bytes of `item`'s request body.
    package func withBody<R>(_ item: Item, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[item.start..<(item.start + item.count)])) }
    }

    /// Whether two items stand for the same donation row before their window is known:
    /// the same plugin, intent, client and body bytes.
    func sameDonation(_ a: Item, _ b: Item) -> Bool {
        guard a.count == b.count, a.intent == b.intent, a.plugin == b.plugin, a.client == b.client else { return false }
        return bytes.withUnsafeBytes { all in
            a.count == 0 || a.start == b.start || memcmp(all.baseAddress! + a.start, all.baseAddress! + b.start, a.count) == 0
        }
    }
}
