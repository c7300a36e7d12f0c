import IntentBusCore

/// One declared new-style intent: an entry of metadata `intents` (docs/protocol.md §9.1).
public struct NewStyleIntent: Sendable, Equatable {
    /// The intent's name on the bus.
    public var identifier: String
    public var title: String
    public var description: String?
    /// The category name (`category`).
    public var category: String?
    public var authentication: IntentAuthenticationPolicy
    /// The legacy intent this one replaces (`migrated_from`, §9.5).
    public var migratedFrom: String?
    /// The assistant schema it implements (`schema`, docs/schemas.md).
    public var schema: String?
    public var parameters: [NewStyleParameter]
    /// The parameter summary (`summary`), when the intent declares one.
    public var summary: NewStyleSummary?
    /// Whether people are offered the intent (`discoverable`, App Intents'
    /// `isDiscoverable`): false keeps it out of `say`'s phrases and suggestions; it still
    /// runs when called by name.
    public var discoverable: Bool

    public init(identifier: String, title: String, description: String? = nil, category: String? = nil,
                authentication: IntentAuthenticationPolicy = .alwaysAllowed, migratedFrom: String? = nil,
                schema: String? = nil, parameters: [NewStyleParameter] = [], summary: NewStyleSummary? = nil,
                discoverable: Bool = true) {
        self.identifier = identifier
        self.title = title
        self.description = description
        self.category = category
        self.authentication = authentication
        self.migratedFrom = migratedFrom
        self.schema = schema
        self.parameters = parameters
        self.summary = summary
        self.discoverable = discoverable
    }

    /// The metadata entry; `authentication` is always written.
    public var json: JSON {
        var o: [String: JSON] = ["identifier": .string(identifier), "title": .string(title),
                                 "authentication": .string(authentication.rawValue),
                                 "parameters": .array(parameters.map(\.json))]
        if let description { o["description"] = .string(description) }
        if let category { o["category"] = .string(category) }
        if let migratedFrom { o["migrated_from"] = .string(migratedFrom) }
        if let schema { o["schema"] = .string(schema) }
        if let summary { o["summary"] = summary.json }
        if !discoverable { o["discoverable"] = false }
        return .object(o)
    }
}
