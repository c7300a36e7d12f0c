import Foundation
import IntentBusCore
import IntentBusMetadata
import IntentBusDefinitions

/// One vocabulary for the parameter questions of both handler styles (docs/protocol.md
/// §4.4, "Parameter fields"): a legacy definition's parameter and a new-style declaration
/// are described to the client with the same fields, the same type names and the same
/// range fields, so that a client shows them alike.
///
/// | field | meaning |
/// |---|---|
/// | `type` | `String`, `Integer`, `Decimal`, `Boolean`, `Date`, `Duration`, `CurrencyAmount`, `URL`, or the enum's or entity's own name |
/// | `enum` / `entity` | the enum's / entity type's name, when the parameter is one |
/// | `type_title` | the type for people, in the dialogs' language ("Ganzzahl") |
/// | `multiple` | `true` when the parameter takes a list |
/// | `minimum`, `maximum` | the inclusive range; integers for `Integer` |
/// | `range` | the range as text ("5…180", "≥ 5") |
/// | `options` | an enum's cases, `{"id", "title"}` |
///
/// Pure value code.
enum PromptVocabulary {
    /// The fields for a legacy (definition) parameter.
    static func fields(_ p: ParameterDefinition, in definition: IntentDefinition) -> [String: JSON] {
        var o: [String: JSON] = ["type": .string(p.type.description)]
        switch p.type {
        case .enumeration(let name):
            o["enum"] = .string(name)
            let declared = definition.enums[name]
            o["type_title"] = .string(declared?.displayName ?? name)
            if let cases = declared?.cases {
                o["options"] = .array(cases.map { ["id": .string($0.name), "title": .string($0.displayName)] })
            }
        case .object(let name):
            o["entity"] = .string(name)
            // A legacy custom type has no entity query: clients don't ask ib.entities for it.
            o["queryable"] = false
            o["type_title"] = .string(definition.types[name]?.displayName ?? name)
        default:
            o["type_title"] = .string(TypeTitles.title(p.type.description, language: definition.locale.language))
        }
        if p.multiple { o["multiple"] = true }
        // Integers stay integers; so do durations (whole seconds travel as integers).
        let integral = p.type == .integer || p.type == .duration
        if let minimum = p.minimum { o["minimum"] = bound(minimum, integral: integral) }
        if let maximum = p.maximum { o["maximum"] = bound(maximum, integral: integral) }
        if p.minimum != nil || p.maximum != nil {
            o["range"] = .string(rangeText(p.minimum.map { definition.locale.boundText($0, for: p.type) },
                                           p.maximum.map { definition.locale.boundText($0, for: p.type) }))
        }
        return o
    }

    /// The fields for a new-style declared parameter.
    static func fields(_ p: NewStyleParameter, catalog: NewStyleCatalog) -> [String: JSON] {
        var o: [String: JSON] = ["type": .string(typeName(p))]
        if let name = p.enumName {
            o["enum"] = .string(name)
            let display = catalog.enums[name]?.typeDisplayName ?? ""
            o["type_title"] = .string(display.isEmpty ? name : display)
            if let e = catalog.enums[name] {
                o["options"] = .array(e.cases.map { ["id": .string($0.value), "title": .string($0.title)] })
            }
        } else if let name = p.entity {
            o["entity"] = .string(name)
            o["type_title"] = .string(catalog.entities[name]?.typeDisplayName ?? name)
        } else {
            o["type_title"] = .string(TypeTitles.title(typeName(p), language: nil))
        }
        if p.multiple { o["multiple"] = true }
        if let min = p.min { o["minimum"] = min }
        if let max = p.max { o["maximum"] = max }
        if p.min != nil || p.max != nil { o["range"] = .string(p.rangeText) }
        return o
    }

    /// The shared type name of a new-style parameter (`integer` → `Integer`).
    static func typeName(_ p: NewStyleParameter) -> String {
        p.type.promptName(declared: p.type == .entity ? p.entity : p.type == .enumeration ? p.enumName : nil)
    }

    /// A bound as the parameter's numbers travel: an integer for an Integer (`5`, not `5.0`).
    static func bound(_ value: Double, integral: Bool) -> JSON {
        integral && value == value.rounded() && abs(value) < 9e15 ? .int(Int64(value)) : .double(value)
    }

    /// "5…180", "≥ 5", "≤ 180".
    static func rangeText(_ lo: String?, _ hi: String?) -> String {
        switch (lo, hi) {
        case let (lo?, hi?): "\(lo)…\(hi)"
        case let (lo?, nil): "≥ \(lo)"
        case let (nil, hi?): "≤ \(hi)"
        default: "any"
        }
    }

    /// An `invalid_parameters` problem entry, the same for both styles:
    /// `{"parameter", "expected", "problem"}` (`expected` is the shared type name).
    static func problem(_ parameter: String, expected: String?, _ problem: String) -> JSON {
        var o: [String: JSON] = ["parameter": .string(parameter), "problem": .string(problem)]
        if let expected { o["expected"] = .string(expected) }
        return .object(o)
    }

    /// The `invalid_parameters` details: the first parameter, the intent, every problem.
    static func details(intent: String, problems: [JSON]) -> JSON {
        ["parameter": problems.first?["parameter"] ?? .null, "intent": .string(intent), "problems": .array(problems)]
    }
}

extension DialogLocale {
    /// The locale's language code (`de` for `de_DE`); nil when neutral.
    var language: String? {
        guard let identifier else { return nil }
        return String(identifier.split(separator: "_").first ?? Substring(identifier)).lowercased()
    }
}
