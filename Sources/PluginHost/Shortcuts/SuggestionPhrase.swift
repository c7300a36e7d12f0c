import Foundation
import IntentBusCore

/// Whether a phrase, said, runs a suggestion's parameters: what `resolve` makes of the
/// words against what was donated.
enum SuggestionPhrase {
    /// Whether `said` (the parameters a phrase gives) runs with the values of
    /// `donated`: every key the same, each value equal, or equal once the host has
    /// coerced it. A legacy slot's words arrive as text (`"10"` for an Integer, `"Sam"`
    /// for a list of people) and the flow coerces them (ParameterCoercion): `"10"` runs
    /// as 10 and `"Sam"` as `["Sam"]`, so those count as the same; `"15"` never as 10.
    static func sameValues(_ said: JSON, _ donated: JSON) -> Bool {
        guard let a = said.objectValue, let b = donated.objectValue else { return said == donated }
        guard Set(a.keys) == Set(b.keys) else { return false }
        return a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
    }

    private static func same(_ said: JSON, _ donated: JSON) -> Bool {
        if said == donated { return true }
        switch (said, donated) {
        case (.string(let text), .int), (.string(let text), .double), (.string(let text), .bool):
            return text.trimmingCharacters(in: .whitespaces) == donated.displayText
        case (_, .array(let items)) where items.count == 1 && said.arrayValue == nil:
            return same(said, items[0])
        case (.object, .object):
            return sameValues(said, donated)
        default:
            return false
        }
    }
}
