import Foundation
import IntentBusCore

/// Reads host-intent bodies from outside: every string is length-checked, every number
/// range-checked, and a wrong type is an `invalid_parameters` error, never a crash.
enum ShortcutInput {
    /// A non-empty string of at most `ShortcutCenter.maximumTextLength` characters, or
    /// nil when absent (an error when `required`).
    static func text(_ body: JSON, _ key: String, required: Bool = false) -> Result<String?, BusError> {
        guard let value = body[key], !value.isNull else {
            return required ? .failure(BusError(.invalidParameters, "\"\(key)\" is required")) : .success(nil)
        }
        guard let s = value.stringValue, !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" must be a non-empty string, got \(value.typeName)"))
        }
        guard s.count <= ShortcutCenter.maximumTextLength else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" is \(s.count) characters long; at most \(ShortcutCenter.maximumTextLength)"))
        }
        return .success(s)
    }

    /// A JSON object of parameters (empty when absent), bounded in size.
    static func parameters(_ body: JSON, _ key: String = "parameters") -> Result<JSON, BusError> {
        guard let value = body[key], !value.isNull else { return .success(.object([:])) }
        guard value.objectValue != nil else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" must be a JSON object, got \(value.typeName)"))
        }
        let size = value.canonicalData.count
        guard size <= ShortcutCenter.maximumParametersBytes else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" is \(size) bytes; at most \(ShortcutCenter.maximumParametersBytes)"))
        }
        return .success(value)
    }

    /// An integer within `range`, or `fallback` when absent.
    static func integer(_ body: JSON, _ key: String, in range: ClosedRange<Int64>, fallback: Int64) -> Result<Int64, BusError> {
        guard let value = body[key], !value.isNull else { return .success(fallback) }
        guard let i = value.intValue, range.contains(i) else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" must be an integer within \(range.lowerBound)…\(range.upperBound), got \(value.canonicalString)"))
        }
        return .success(i)
    }

    /// A boolean, or `fallback` when absent.
    static func flag(_ body: JSON, _ key: String, fallback: Bool) -> Result<Bool, BusError> {
        guard let value = body[key], !value.isNull else { return .success(fallback) }
        guard let b = value.boolValue else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" must be true or false, got \(value.typeName)"))
        }
        return .success(b)
    }
}
