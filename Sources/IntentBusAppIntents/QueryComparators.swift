import IntentBusCore

/// The comparators of a property query, by their wire names (docs/protocol.md §9.4).
public enum QueryComparatorKind: String, Sendable, CaseIterable {
    case equalTo = "equal_to", notEqualTo = "not_equal_to", contains, hasPrefix = "has_prefix", hasSuffix = "has_suffix"
    case lessThan = "less_than", lessThanOrEqualTo = "less_than_or_equal_to"
    case greaterThan = "greater_than", greaterThanOrEqualTo = "greater_than_or_equal_to", isBetween = "is_between"
}

/// A comparator of a `Property` in `QueryProperties`: its kind and its block, which
/// turns a filter's value into the query's mapped type.
public struct QueryComparatorEntry<Value: IntentValue, Mapped>: @unchecked Sendable {
    // @unchecked: immutable; `map` is @Sendable.
    let kind: QueryComparatorKind
    let map: @Sendable (JSON) async throws -> Mapped

    /// One value: decoded as a parameter of the property's type would be.
    init(_ kind: QueryComparatorKind, _ block: @escaping @Sendable (Value) -> Mapped) {
        self.kind = kind
        map = { json in block(try await Value.intentValue(from: json, parameter: "value", context: nil)) }
    }

    /// Two values, `[low, high]` on the wire (`IsBetweenComparator`).
    init(between block: @escaping @Sendable (Value, Value) -> Mapped) {
        kind = .isBetween
        map = { json in
            guard let pair = json.arrayValue, pair.count == 2 else {
                throw BusError(.invalidParameters, "is_between takes [low, high]")
            }
            return block(try await Value.intentValue(from: pair[0], parameter: "value", context: nil),
                         try await Value.intentValue(from: pair[1], parameter: "value", context: nil))
        }
    }
}

@resultBuilder
public enum QueryComparatorsBuilder<Value: IntentValue, Mapped> {
    public typealias Entry = QueryComparatorEntry<Value, Mapped>
    public static func buildExpression(_ c: EqualToComparator<Value, Mapped>) -> [Entry] { [.init(.equalTo, c.block)] }
    public static func buildExpression(_ c: NotEqualToComparator<Value, Mapped>) -> [Entry] { [.init(.notEqualTo, c.block)] }
    public static func buildExpression(_ c: ContainsComparator<Value, Mapped>) -> [Entry] { [.init(.contains, c.block)] }
    public static func buildExpression(_ c: HasPrefixComparator<Value, Mapped>) -> [Entry] { [.init(.hasPrefix, c.block)] }
    public static func buildExpression(_ c: HasSuffixComparator<Value, Mapped>) -> [Entry] { [.init(.hasSuffix, c.block)] }
    public static func buildExpression(_ c: LessThanComparator<Value, Mapped>) -> [Entry] { [.init(.lessThan, c.block)] }
    public static func buildExpression(_ c: LessThanOrEqualToComparator<Value, Mapped>) -> [Entry] { [.init(.lessThanOrEqualTo, c.block)] }
    public static func buildExpression(_ c: GreaterThanComparator<Value, Mapped>) -> [Entry] { [.init(.greaterThan, c.block)] }
    public static func buildExpression(_ c: GreaterThanOrEqualToComparator<Value, Mapped>) -> [Entry] { [.init(.greaterThanOrEqualTo, c.block)] }
    public static func buildExpression(_ c: IsBetweenComparator<Value, Mapped>) -> [Entry] { [.init(between: c.block)] }
    public static func buildBlock(_ parts: [Entry]...) -> [Entry] { parts.flatMap { $0 } }
}

/// `EqualToComparator { .author($0) }` (App Intents' comparators, each with its mapping block).
public struct EqualToComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct NotEqualToComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct ContainsComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct HasPrefixComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct HasSuffixComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct LessThanComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct LessThanOrEqualToComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct GreaterThanComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct GreaterThanOrEqualToComparator<Value, Mapped> {
    let block: @Sendable (Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value) -> Mapped) { block = mappingBlock }
}
public struct IsBetweenComparator<Value, Mapped> {
    let block: @Sendable (Value, Value) -> Mapped
    public init(mappingBlock: @escaping @Sendable (Value, Value) -> Mapped) { block = mappingBlock }
}
