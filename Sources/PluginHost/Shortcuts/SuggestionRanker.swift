import Foundation
import IntentBusCore
import IntentBusStore

/// Ranks what a user is likely to want now from their donations: by frequency (every
/// donation counts, a coalesced row as many as it stands for), recency (a donation's weight halves every `halfLife`), and time of
/// day (a donation made near this hour of the day counts up to twice). Pure value code.
struct SuggestionRanker {
    /// One suggestion: an intent with its parameters (and plugin), and why.
    struct Suggestion {
        let intent: String
        let parameters: JSON
        let plugin: String?
        let score: Double
        let count: Int
        let last: Date
        /// The newest donation's title and suggested phrase, when any donation had them.
        let title: String?
        let suggestedPhrase: String?
        let identifier: String?
    }

    var halfLife: TimeInterval = 7 * 86_400
    /// Donations within this many hours of the current time of day get the bonus.
    var hourWindow: Double = 3
    var timeZone = TimeZone.current

    /// The suggestions, best first (ties: the most recent first, then by intent).
    /// Donations not eligible for prediction never appear.
    func rank(_ donations: [Donation], now: Date, limit: Int) -> [Suggestion] {
        struct Group { var members: [Donation] = []; var score = 0.0 }
        var groups: [String: Group] = [:]
        let nowHour = hourOfDay(now)
        // One activity: the donor's persistent identifier when it gave one (the cart's
        // "show-cart-ada", whether reached as ShowCartIntent or its migrated replacement);
        // otherwise the same intent with the same parameters, whoever donated it, joined
        // to an identified activity of that intent and parameters when there is one.
        var identified: [String: String] = [:]
        for d in donations where d.eligibleForPrediction {
            if let id = d.identifier { identified[Self.action(d)] = identified[Self.action(d)] ?? "id\u{0}\(id)" }
        }
        for d in donations where d.eligibleForPrediction {
            let key = d.identifier.map { "id\u{0}\($0)" } ?? identified[Self.action(d)] ?? Self.action(d)
            let age = max(0, now.timeIntervalSince(d.at))
            let recency = pow(0.5, age / halfLife)
            var distance = abs(hourOfDay(d.at) - nowHour)
            distance = min(distance, 24 - distance)
            let timeOfDay = max(0, 1 - distance / hourWindow)
            groups[key, default: Group()].members.append(d)
            // A coalesced row of the host's donations counts as its `count` donations.
            groups[key]!.score += Double(d.count) * recency * (1 + timeOfDay)
        }
        let suggestions = groups.values.map { g -> Suggestion in
            let newest = g.members.max { $0.at < $1.at }!
            let titled = g.members.sorted { $0.at > $1.at }
            return Suggestion(intent: newest.intent, parameters: newest.parameters,
                              plugin: titled.first { $0.plugin != nil }?.plugin,
                              score: (g.score * 1000).rounded() / 1000, count: g.members.reduce(0) { $0 + $1.count }, last: newest.at,
                              title: titled.first { $0.title != nil }?.title,
                              suggestedPhrase: titled.first { $0.phrase != nil }?.phrase,
                              identifier: titled.first { $0.identifier != nil }?.identifier)
        }
        return Array(suggestions.sorted {
            if $0.score != $1.score { return $0.score > $1.score }
            if $0.last != $1.last { return $0.last > $1.last }
            return $0.intent < $1.intent
        }.prefix(limit))
    }

    private static func action(_ d: Donation) -> String { "\(d.intent)\u{0}\(d.parameters.canonicalString)" }

    private func hourOfDay(_ date: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return Double(c.hour ?? 0) + Double(c.minute ?? 0) / 60
    }
}
