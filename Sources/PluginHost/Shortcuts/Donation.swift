import Foundation
import IntentBusCore

/// An interaction that happened, kept so the host can suggest it again (SiriKit's
/// `INInteraction.donate`, an `NSUserActivity` eligible for prediction).
struct Donation: Sendable, Equatable {
    /// Who donated: the host after a request succeeded, a plugin in its REPLY header, or
    /// a client with `ib.donate`.
    enum Source: String, Sendable { case host, plugin, client }

    var id: Int64 = 0
    /// The donor's persistent identifier, for deleting it later.
    var identifier: String?
    /// A group identifier, for deleting several together.
    var group: String?
    let intent: String
    /// A JSON object.
    let parameters: JSON
    var plugin: String?
    var client: String?
    var title: String?
    /// The suggested invocation phrase, which "Add to Siri" offers by default.
    var phrase: String?
    /// Whether it may be suggested (`isEligibleForPrediction`).
    var eligibleForPrediction = true
    let source: Source
    /// The last time; a coalesced row of the host's own donations (`DonationMerger`)
    /// stands for `count` donations within one window, the last at `at`.
    let at: Date
    var count = 1

    /// The donation for clients (`ib.donations.list`, `ib.donate`'s answer).
    var json: JSON {
        var o: [String: JSON] = ["id": .int(id), "intent": .string(intent), "parameters": parameters, "count": .int(Int64(count)),
                                 "source": .string(source.rawValue), "eligible_for_prediction": .bool(eligibleForPrediction),
                                 "at": .string(ShortcutTime.text(at))]
        if let identifier { o["identifier"] = .string(identifier) }
        if let group { o["group"] = .string(group) }
        if let plugin { o["plugin"] = .string(plugin) }
        if let client { o["client"] = .string(client) }
        if let title { o["title"] = .string(title) }
        if let phrase { o["suggested_phrase"] = .string(phrase) }
        return .object(o)
    }
}

/// A donation the host makes itself after a request succeeded: the request's body as
/// the client sent it. The router thread hands over the bytes; the writer thread parses
/// them, once per distinct body in a batch, and coalesces (`DonationMerger`).
struct HostDonation: Sendable {
    let intent: String
    let plugin: String
    let client: String?
    /// The request body (a JSON object, or no donation).
    let parameters: Data
    let at: Date
}

/// Which donations a delete removes.
enum DonationSelector: Sendable, Equatable {
    case identifiers([String])
    case group(String)
    case plugin(String)
    case all
}

/// Timestamps for people and for tests: ISO 8601 UTC with milliseconds.
enum ShortcutTime {
    static func text(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }
}
