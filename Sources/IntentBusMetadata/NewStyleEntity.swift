import IntentBusCore

/// A declared entity type and what its query answers: an entry of metadata `entities`.
public struct NewStyleEntity: Sendable, Equatable {
    public var name: String
    /// The type's name for people (`type_display_name`).
    public var typeDisplayName: String
    /// Looks entities up by id (`query.ids`; required, so that stored ids resolve).
    public var ids: Bool
    /// Suggests entities (`query.suggested`).
    public var suggested: Bool
    /// Finds entities by free text (`query.matching`).
    public var matching: Bool
    /// Lists all its entities (`query.all`, small sets).
    public var all: Bool
    /// Finds entities by their properties (`query.property`, `property_query`).
    public var propertyQuery: NewStylePropertyQuery?

    public init(name: String, typeDisplayName: String, ids: Bool = true, suggested: Bool = true,
                matching: Bool = false, all: Bool = false, propertyQuery: NewStylePropertyQuery? = nil) {
        self.name = name
        self.typeDisplayName = typeDisplayName
        self.ids = ids
        self.suggested = suggested
        self.matching = matching
        self.all = all
        self.propertyQuery = propertyQuery
    }

    /// The metadata entry, with the whole `query` object.
    public var json: JSON {
        var query: [String: JSON] = ["ids": .bool(ids), "suggested": .bool(suggested), "matching": .bool(matching), "all": .bool(all)]
        var o: [String: JSON] = ["name": .string(name), "type_display_name": .string(typeDisplayName)]
        if let propertyQuery {
            query["property"] = true
            o["property_query"] = propertyQuery.json
        }
        o["query"] = .object(query)
        return .object(o)
    }
}
