import Foundation
import IntentBusCore
import IntentBusPlugin

extension LegacyIntent {
    /// The items of a list (`multiple`) parameter, in order; empty when it has none. The
    /// host sends a list parameter as a JSON array (a single value becomes a list of one).
    public func items(_ parameter: String) -> [JSON] {
        guard let value = parameters[parameter], !value.isNull else { return [] }
        return value.arrayValue ?? [value]
    }

    /// Each item's custom-object `identifier`, or the string the user gave for it.
    public func identifiers(_ parameter: String) -> [String] {
        items(parameter).compactMap { $0["identifier"]?.stringValue ?? $0.stringValue }
    }

    /// Each item as text: a string, or a custom object's `displayString` (else `identifier`).
    public func strings(_ parameter: String) -> [String] {
        items(parameter).compactMap { $0.stringValue ?? $0["displayString"]?.stringValue ?? $0["identifier"]?.stringValue }
    }
}
