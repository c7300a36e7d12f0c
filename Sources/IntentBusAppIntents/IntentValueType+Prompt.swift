import Foundation
import IntentBusCore
import IntentBusPlugin

extension IntentValueType {
    /// The type name value questions use in both handler styles (docs/protocol.md §4.4):
    /// `String`, `Integer`, `Decimal`, `Boolean`, `Date`, `URL`, or the entity's or
    /// enum's own name.
    public var promptTypeName: String {
        switch self {
        case .entity(let e): e.name
        case .enumeration(let e): e.name
        default: declaredType.promptName(declared: nil)
        }
    }

    /// `type`, `type_title` and `enum`/`entity` (with an enum's `options`) of a value question.
    var promptFields: [String: JSON] {
        var o: [String: JSON] = ["type": .string(promptTypeName)]
        switch self {
        case .entity(let e):
            o["entity"] = .string(e.name)
            o["type_title"] = .string(e.typeDisplayName)
        case .enumeration(let e):
            o["enum"] = .string(e.name)
            o["type_title"] = .string(e.typeDisplayName)
            o["options"] = .array(e.cases.map { ["id": .string($0.value), "title": .string($0.title)] })
        case .integer: o["type_title"] = "whole number"
        case .decimal: o["type_title"] = "number"
        case .boolean: o["type_title"] = "yes or no"
        case .string: o["type_title"] = "text"
        case .date: o["type_title"] = "date"
        case .url: o["type_title"] = "web address"
        }
        return o
    }
}
