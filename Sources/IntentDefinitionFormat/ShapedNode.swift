import IntentBusCore

/// A definition in the shape of the YAML form (docs/definitions.md), with ordered keys,
/// each node remembering the `.intentdefinition` key path it came from. It is the one
/// meeting point of the two forms: an `.intentdefinition` becomes one (`XcodeShapeReader`)
/// and one becomes an `.intentdefinition` (`XcodeShapeWriter`); the host turns it into
/// YAML nodes for its definition checks, or into YAML text.
package struct ShapedNode: Sendable {
    /// What a node holds.
    package indirect enum Value: Sendable {
        case scalar(JSON)
        case list([ShapedNode])
        case map([Entry])
    }

    /// One key of a map, in the order written.
    package struct Entry: Sendable {
        package var key: String
        package var node: ShapedNode
        package init(_ key: String, _ node: ShapedNode) {
            self.key = key
            self.node = node
        }
    }

    package var value: Value
    /// The key path in the `.intentdefinition` (`INIntents[0].INIntentParameters[1]`), or
    /// the YAML path for a node read from YAML.
    package var origin: String

    package init(_ value: Value, origin: String) {
        self.value = value
        self.origin = origin
    }

    package static func scalar(_ value: JSON, origin: String) -> ShapedNode { ShapedNode(.scalar(value), origin: origin) }

    /// The value of `key`, when this node is a map that has it.
    package subscript(key: String) -> ShapedNode? {
        if case .map(let entries) = value { return entries.first { $0.key == key }?.node }
        return nil
    }

    package var entries: [Entry] { if case .map(let e) = value { return e }; return [] }
    package var items: [ShapedNode] { if case .list(let i) = value { return i }; return [] }
    package var scalarValue: JSON? { if case .scalar(let s) = value { return s }; return nil }
    package var string: String? { scalarValue?.stringValue }

    /// The content as JSON (maps as objects, order dropped): what "nothing lost" compares.
    package var json: JSON {
        switch value {
        case .scalar(let s): s
        case .list(let items): .array(items.map(\.json))
        case .map(let entries): .object(Dictionary(entries.map { ($0.key, $0.node.json) }, uniquingKeysWith: { a, _ in a }))
        }
    }
}
