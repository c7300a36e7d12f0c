import Foundation
import IntentBusCore
import IntentBusStore

/// The JSON forms of the donation host intents that need no state (moved out of
/// ShortcutCenter+Donations.swift): which donations `ib.donations.delete` names, a
/// suggestion as `ib.suggestions` lists it, and its "Add to Siri" fields.
enum DonationForms {
    /// Most identifiers one delete may name.
    static let maximumIdentifiers = 100

    static func json(_ s: SuggestionRanker.Suggestion) -> JSON {
        var o: [String: JSON] = ["intent": .string(s.intent), "parameters": s.parameters,
                                 "plugin": s.plugin.map { .string($0) } ?? .null, "score": .double(s.score),
                                 "count": .int(Int64(s.count)), "last": .string(ShortcutTime.text(s.last))]
        if let t = s.title { o["title"] = .string(t) }
        if let i = s.identifier { o["identifier"] = .string(i) }
        if let p = s.suggestedPhrase { o["suggested_phrase"] = .string(p) }
        return .object(o)
    }

    /// "Add to Siri" for a suggestion no phrase runs: what recording one takes (the
    /// donation's suggested phrase and identifier, for `ib.shortcuts.add {"donation"}`).
    static func addToSiri(_ suggestion: [String: JSON], suggested: String?) -> JSON {
        ["suggested_phrase": suggested.map { .string($0) } ?? .null,
         "donation": suggested == nil ? .null : suggestion["identifier"] ?? .null]
    }

    /// Which donations a delete names; exactly one way.
    static func selector(_ body: JSON) -> Result<DonationSelector, BusError> {
        var found: [DonationSelector] = []
        if let ids = body["identifiers"] {
            guard let list = ids.arrayValue, list.count <= maximumIdentifiers,
                  let strings = Optional(list.compactMap(\.stringValue)), strings.count == list.count, !strings.isEmpty else {
                return .failure(BusError(.invalidParameters, "\"identifiers\" must be 1…\(maximumIdentifiers) strings"))
            }
            found.append(.identifiers(strings))
        }
        switch (ShortcutInput.text(body, "group"), ShortcutInput.text(body, "plugin"), ShortcutInput.flag(body, "all", fallback: false)) {
        case (.failure(let e), _, _), (_, .failure(let e), _), (_, _, .failure(let e)): return .failure(e)
        case (.success(let g), .success(let p), .success(let all)):
            if let g { found.append(.group(g)) }
            if let p { found.append(.plugin(p)) }
            if all { found.append(.all) }
        }
        guard found.count == 1 else {
            return .failure(BusError(.invalidParameters,
                "delete donations by one of {\"identifiers\": […]}, {\"group\": …}, {\"plugin\": …} or {\"all\": true}"))
        }
        return .success(found[0])
    }
}
