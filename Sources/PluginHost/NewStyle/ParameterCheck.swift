import Foundation
import IntentBusCore
import IntentBusMetadata

/// Checks a parameter value against its declaration, the same way for every plugin
/// language: the type (with unambiguous coercions from text), enum cases, entity
/// references, and the inclusive range.
enum ParameterCheck {
    /// The normalised wire value, or why it doesn't fit.
    static func check(_ value: JSON, _ p: NewStyleParameter, catalog: NewStyleCatalog,
                      checkRange: Bool = true) -> Result<JSON, ParameterProblem> {
        if p.multiple { return checkList(value, p, catalog: catalog, checkRange: checkRange) }
        if value.arrayValue != nil { return .failure("takes one value, got a list") }
        return checkOne(value, p, catalog: catalog, checkRange: checkRange)
    }

    static func checkOne(_ value: JSON, _ p: NewStyleParameter, catalog: NewStyleCatalog,
                         checkRange: Bool = true) -> Result<JSON, ParameterProblem> {
        let normalised: JSON
        switch p.type {
        case .integer:
            if let i = value.intValue { normalised = .int(i) }
            else if let s = value.stringValue, let i = Int64(s.trimmingCharacters(in: .whitespaces)) { normalised = .int(i) }
            else { return .failure("expected an integer, got \(describe(value))") }
        case .decimal:
            if let d = value.doubleValue { normalised = .double(d) }
            else if let s = value.stringValue, let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite { normalised = .double(d) }
            else { return .failure("expected a decimal number, got \(describe(value))") }
        case .boolean:
            if let b = value.boolValue { normalised = .bool(b) }
            else if let s = value.stringValue?.lowercased(), ["true", "yes", "false", "no"].contains(s) {
                normalised = .bool(s == "true" || s == "yes")
            } else { return .failure("expected true or false, got \(describe(value))") }
        case .string:
            switch value {
            case .string: normalised = value
            case .int, .double, .bool: normalised = .string(value.displayText)
            default: return .failure("expected a string, got \(describe(value))")
            }
        case .date:
            guard let s = value.stringValue, let parsed = IntentDateText.parse(s) else {
                return .failure("expected \(IntentDateText.expectedForm), got \(describe(value))")
            }
            normalised = .string(parsed.normalised)
        case .url:
            guard let s = value.stringValue, let parsed = IntentURLText.parse(s) else {
                return .failure("expected \(IntentURLText.expectedForm), got \(describe(value))")
            }
            normalised = .string(parsed.normalised)
        case .enumeration:
            let cases = p.enumName.flatMap { catalog.enums[$0] }?.cases ?? []
            // A case value, or (as legacy enums do) a display name, in any case.
            guard let s = value.stringValue ?? (value.intValue.map { String($0) }),
                  let match = cases.first(where: { $0.value == s })
                    ?? cases.first(where: { $0.value.lowercased() == s.lowercased() || $0.title.lowercased() == s.lowercased() }) else {
                return .failure("expected one of \(cases.map(\.value).joined(separator: ", ")), got \(describe(value))")
            }
            normalised = .string(match.value)
        case .entity:
            switch value {
            case .string(let s) where !s.isEmpty: normalised = value
            case .int: normalised = .string(value.displayText)
            case .object(let o) where (o["id"]?.stringValue ?? o["text"]?.stringValue) != nil:
                normalised = .object(o.filter { $0.key == "id" || $0.key == "text" })
            default:
                return .failure("expected a \(p.entity ?? "entity") id or text (a string, {\"id\":…} or {\"text\":…}), got \(describe(value))")
            }
        }
        if checkRange && !inRange(normalised, p) {
            return .failure("must be within \(p.rangeText), got \(normalised.displayText)")
        }
        return .success(normalised)
    }

    /// Whether a numeric value (every item of a list) lies in the declared inclusive
    /// range (true when none).
    static func inRange(_ value: JSON, _ p: NewStyleParameter) -> Bool { p.inRange(value) }

    private static func describe(_ value: JSON) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .null: "null"
        default: "\(value.typeName) \(value.canonicalString)"
        }
    }
}

/// Why a value does not fit its parameter, as a phrase ("expected an integer, got …").
struct ParameterProblem: Error, CustomStringConvertible, ExpressibleByStringInterpolation {
    let message: String
    init(stringLiteral value: String) { message = value }
    init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
    var description: String { message }
}
