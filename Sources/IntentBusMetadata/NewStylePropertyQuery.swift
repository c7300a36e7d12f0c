import IntentBusCore

/// What an entity type's property query (App Intents' `EntityPropertyQuery`) declares:
/// metadata `entities[].property_query` (docs/protocol.md §9.4). The host checks every
/// `ib.entities` query `property` against it before the plugin sees it.
public struct NewStylePropertyQuery: Sendable, Equatable {
    /// A property that can be filtered on.
    public struct Property: Sendable, Equatable {
        public var name: String
        public var type: NewStyleParameter.ValueType
        /// Comparator wire names: `equal_to`, `contains`, `is_between`, …
        public var comparators: [String]

        public init(name: String, type: NewStyleParameter.ValueType, comparators: [String]) {
            self.name = name
            self.type = type
            self.comparators = comparators
        }
    }

    /// The comparators a plugin may declare.
    public static let comparatorNames: Set<String> = ["equal_to", "not_equal_to", "contains", "has_prefix", "has_suffix",
                                                      "less_than", "less_than_or_equal_to", "greater_than",
                                                      "greater_than_or_equal_to", "is_between"]

    public var properties: [Property]
    /// The properties results can be sorted by.
    public var sortable: [String]

    public init(properties: [Property], sortable: [String]) {
        self.properties = properties
        self.sortable = sortable
    }

    public var json: JSON {
        ["properties": .array(properties.map { p in
            ["name": .string(p.name), "type": .string(p.type.rawValue), "comparators": .array(p.comparators.map { .string($0) })]
         }),
         "sortable": .array(sortable.map { .string($0) })]
    }

    /// Decodes `property_query` of entity `entity`, appending what is wrong to `problems`.
    public static func decode(_ json: JSON, entity: String, problems: inout [String]) -> NewStylePropertyQuery {
        let at = "entity type \(entity): property_query"
        var out = NewStylePropertyQuery(properties: [], sortable: [])
        for (i, p) in (json["properties"]?.arrayValue ?? []).enumerated() {
            guard let name = p["name"]?.stringValue, !name.isEmpty else {
                problems.append("\(at): property #\(i + 1) has no name (a key path does not carry one: add the AppIntentsMetadataPlugin build-tool plugin to the target, or give it with EntityPropertyNames.name(_:_:))")
                continue
            }
            guard let type = p["type"]?.stringValue.flatMap(NewStyleParameter.ValueType.init(rawValue:)), type != .entity else {
                problems.append("\(at): property \(name.prefix(80)) has a type a filter cannot take (\(p["type"]?.displayText.prefix(40) ?? "none"))"); continue
            }
            let comparators = (p["comparators"]?.arrayValue ?? []).compactMap(\.stringValue)
            for c in comparators where !comparatorNames.contains(c) {
                problems.append("\(at): property \(name.prefix(80)): unknown comparator \(c.prefix(40)) (\(comparatorNames.sorted().joined(separator: ", ")))")
            }
            if comparators.isEmpty { problems.append("\(at): property \(name.prefix(80)) has no comparators") }
            if out.properties.contains(where: { $0.name == name }) { problems.append("\(at): two properties named \(name.prefix(80))") }
            out.properties.append(Property(name: name, type: type, comparators: comparators.filter(comparatorNames.contains)))
        }
        for (i, s) in (json["sortable"]?.arrayValue ?? []).enumerated() {
            guard let name = s.stringValue, !name.isEmpty else {
                problems.append("\(at): sortable property #\(i + 1) has no name (as for properties: the build-tool plugin gives it)"); continue
            }
            out.sortable.append(name)
        }
        return out
    }
}
