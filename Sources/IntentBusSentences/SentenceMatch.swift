import IntentBusCore

/// One way a text matched: the intent, its slots, and how good the match is.
package struct SentenceMatch: Sendable {
    /// One filled slot.
    package struct Slot: Sendable, Equatable {
        package var value: JSON
        /// The words as said ("" for a fixed or context slot).
        package var text: String
        package var isWildcard: Bool
    }

    package var intent: String
    package var slots: [String: Slot]
    /// The request's context with what the matched list values added.
    package var context: [String: JSON]
    package var response: String?
    package var owner: String?
    /// The template that matched, as written, and where.
    package var template: String
    package var location: SentenceLocation
    /// Characters of literal text matched (more is more specific).
    package var literalCharacters: Int
    /// Which block and sentence (load order): the last tie-break.
    var order: Int

    /// The slot values alone.
    package var values: [String: JSON] { slots.mapValues(\.value) }

    /// hassil's order (recognize_best), lower first: a real value for the preferred slot,
    /// the longer one; fewer wildcards; more literal text; less wildcard text; intent name;
    /// then load order, so that equal matches always come out the same way.
    func rank(preferredSlot: String?) -> Rank {
        var preferred = 1, preferredLength = 0
        if let name = preferredSlot, let slot = slots[name], !slot.isWildcard, !slot.text.isEmpty {
            preferred = 0
            if case .string = slot.value { preferredLength = -slot.text.count }
        }
        let wildcards = slots.values.filter(\.isWildcard)
        return Rank(numbers: (preferred, preferredLength, wildcards.count, -literalCharacters,
                              wildcards.reduce(0) { $0 + $1.text.count }), intent: intent, order: order)
    }

    /// A match's place in the order; lower is better.
    struct Rank: Comparable {
        let numbers: (Int, Int, Int, Int, Int)
        let intent: String
        let order: Int
        static func < (a: Rank, b: Rank) -> Bool {
            if a.numbers != b.numbers { return a.numbers < b.numbers }
            if a.intent != b.intent { return a.intent < b.intent }
            return a.order < b.order
        }
        static func == (a: Rank, b: Rank) -> Bool { a.numbers == b.numbers && a.intent == b.intent && a.order == b.order }
    }
}
