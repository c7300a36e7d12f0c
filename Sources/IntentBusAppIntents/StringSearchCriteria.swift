import Foundation
import IntentBusCore
import IntentBusPlugin

/// The search term of a `system.search` intent (App Intents' `StringSearchCriteria`):
/// `@Parameter(title: "Suchbegriff") var criteria: StringSearchCriteria`. A string on
/// the wire, as the schema's `criteria` parameter is declared (docs/schemas.md).
public struct StringSearchCriteria: IntentValue, Hashable {
    /// What the user searches for.
    public let term: String

    public init(term: String) { self.term = term }

    public static var intentValueType: IntentValueType { .string }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> StringSearchCriteria {
        StringSearchCriteria(term: try await String.intentValue(from: json, parameter: parameter, context: context))
    }
    public var intentJSON: JSON { .string(term) }
}
