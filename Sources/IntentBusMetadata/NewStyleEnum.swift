import IntentBusCore

/// A declared enum: its case values and display names, an entry of metadata `enums`.
public struct NewStyleEnum: Sendable, Equatable {
    /// One case: the raw value on the wire and its name for people.
    public struct Case: Sendable, Equatable {
        public var value: String
        public var title: String

        public init(value: String, title: String) {
            self.value = value
            self.title = title
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
         "cases": .array(cases.map { ["value": .string($0.value), "title": .string($0.title)] })]
    }
}
