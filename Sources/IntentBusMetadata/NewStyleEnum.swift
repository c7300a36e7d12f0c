import IntentBusCore

/// A declared enum: its case values and display names, an entry of metadata `enums`.
public struct NewStyleEnum: Sendable, Equatable {
    /// One case: the raw value on the wire and its name for people.
    public struct Case: Sendable, Equatable {
        public var value: String
        public var title: String
        /// Other names people say for it (`DisplayRepresentation(title:synonyms:)`), matched
        /// in phrases like the title (docs/sentences.md); at most 16.
        public var synonyms: [String]

        public init(value: String, title: String, synonyms: [String] = []) {
            self.value = value
            self.title = title
            self.synonyms = synonyms
        }

        /// The metadata entry (`synonyms` only when there are some).
        public var json: JSON {
            var o: [String: JSON] = ["value": .string(value), "title": .string(title)]
            if !synonyms.isEmpty { o["synonyms"] = .array(synonyms.map { .string($0) }) }
            return .object(o)
        }
    }

    public var name: String
    /// The type's name for people (`type_display_name`); empty when not given.
    public var typeDisplayName: String
    /// The cases in declaration order.
    public var cases: [Case]

    public init(name: String, typeDisplayName: String = "", cases: [Case]) {
        self.name = name
        self.typeDisplayName = typeDisplayName
        self.cases = cases
    }

    /// The metadata entry.
    public var json: JSON {
        ["name": .string(name), "type_display_name": .string(typeDisplayName),
         "cases": .array(cases.map(\.json))]
    }
}
