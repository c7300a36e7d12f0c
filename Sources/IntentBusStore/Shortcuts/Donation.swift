import Foundation
import IntentBusCore

/// An interaction that happened, kept so the host can suggest it again (SiriKit's
/// `INInteraction.donate`, an `NSUserActivity` eligible for prediction).
package struct Donation: Sendable, Equatable {
    /// Who donated: the host after a request succeeded, a plugin in its REPLY header, or
    /// a client with `ib.donate`.
    package enum Source: String, Sendable { case host, plugin, client }

    package var id: Int64 = 0
    /// The donor's persistent identifier, for deleting it later.
    package var identifier: String?
    /// A group identifier, for deleting several together.
    package var group: String?
    package let intent: String
    /// A JSON object.
    package let parameters: JSON
    package var plugin: String?
    package var client: String?
    package var title: String?
    /// The suggested invocation phrase, which "Add to Siri" offers by default.
    package var phrase: String?
    /// Whether it may be suggested (`isEligibleForPrediction`).
    package var eligibleForPrediction = true
    package let source: Source
    /// The last time; a coalesced row of the host's own donations (`DonationMerger`)
    /// stands for `count` donations within one window, the last at `at`.
    package let at: Date
    package var count = 1

    /// Creates a donation from its parts; `id` is the store's, 0 until it is stored.
    package init(id: Int64 = 0, identifier: String? = nil, group: String? = nil, intent: String, parameters: JSON,
                 plugin: String? = nil, client: String? = nil, title: String? = nil, phrase: String? = nil,
                 eligibleForPrediction: Bool = true, source: Source, at: Date, count: Int = 1) {
        self.id = id
        self.identifier = identifier
        self.group = group
        self.intent = intent
        self.parameters = parameters
        self.plugin = plugin
        self.client = client
        self.title = title
        self.phrase = phrase
        self.eligibleForPrediction = eligibleForPrediction
        self.source = source
        self.at = at
        self.count = count
    }

    /// The donation for clients (`ib.donations.list`, `ib.donate`'s answer).
    package var json: JSON {
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
package struct HostDonation: Sendable {
    package let intent: String
    package let plugin: String
    package let client: String?
    /// The request body (a JSON object, or no donation).
    package let parameters: Data
    package let at: Date

    package init(intent: String, plugin: String, client: String?, parameters: Data, at: Date) {
        (self.intent, self.plugin, self.client, self.parameters, self.at) = (intent, plugin, client, parameters, at)
    }
}

/// Which donations a delete removes.
package enum DonationSelector: Sendable, Equatable {
    case identifiers([String])
    case group(String)
    case plugin(String)
    case all
}

/// Timestamps for people and for tests: ISO 8601 UTC with milliseconds.
package enum ShortcutTime {
    package static func text(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    package static func parse(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }
}
