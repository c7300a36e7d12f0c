import Foundation
import IntentBusCore
import IntentBusPlugin

/// A list parameter, App Intents' `[ProjectEntity]` or `[String]`:
///
/// ```swift
/// @Parameter(title: "Projects") var projects: [ProjectEntity]
/// @Parameter(title: "Tags") var tags: [String]?
/// ```
///
/// It is declared with its items' type and `"multiple": true`; the host checks every item
/// (docs/protocol.md §9.1). Items are converted in order, so an entity item that matches
/// several entities is put to the user before the next item is looked at; the question
/// carries the item's position (`item`, 0-based) and the list's length (`items`).
extension Array: IntentValue where Element: IntentValue {
    public static var intentValueType: IntentValueType { Element.intentValueType }
    public static var isListValue: Bool { true }

    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> [Element] {
        if json.isNull { return [] }
        let items = json.arrayValue ?? [json]
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let value = try await IntentQuestions.$item.withValue((index, items.count)) {
                try await Element.intentValue(from: item, parameter: parameter, context: context)
            }
            out.append(value)
        }
        return out
    }

    public var intentJSON: JSON { .array(map(\.intentJSON)) }
    public var intentArgument: JSON { .array(map(\.intentArgument)) }
}
