import Foundation
import IntentBusCore
import IntentBusMetadata

/// A query that finds entities by their `@Property` values (App Intents'
/// `EntityPropertyQuery`): which properties can be compared how, which sort, and the
/// lookup itself.
///
/// ```swift
/// struct BookQuery: EntityPropertyQuery {
///     static let properties = QueryProperties<BookEntity, BookFilter> {
///         Property(\BookEntity.$author) {
///             EqualToComparator { .author($0) }
///             ContainsComparator { .authorContains($0) }
///         }
///     }
///     static let sortingOptions = SortingOptions<BookEntity> { SortableBy(\BookEntity.$pages) }
///     func entities(matching comparators: [BookFilter], mode: ComparatorMode,
///                   sortedBy: [EntityQuerySort<BookEntity>], limit: Int?) async throws -> [BookEntity] { … }
/// }
/// ```
///
/// Over the bus it is `ib.entities` with `query: "property"` (docs/protocol.md §9.4): the
/// host checks each filter against the declared properties, comparators and value types,
/// and the SDK maps each one through its comparator's block. A property is named on the
/// wire by its Swift name, which a key path does not carry: the AppIntentsMetadata
/// build-tool plugin reads it from the source (or `EntityPropertyNames.name(_:_:)` gives it).
public protocol EntityPropertyQuery: EntityQuery {
    /// What a comparator's block makes of a filter's value (a predicate of the app's own).
    associatedtype ComparatorMappingType
    /// The properties that can be filtered on, with their comparators.
    static var properties: QueryProperties<Entity, ComparatorMappingType> { get }
    /// The properties results can be sorted by.
    static var sortingOptions: SortingOptions<Entity> { get }
    /// The entities that meet all (`.and`) or any (`.or`) of `comparators`, sorted, at
    /// most `limit` of them.
    func entities(matching comparators: [ComparatorMappingType], mode: ComparatorMode,
                  sortedBy: [EntityQuerySort<Entity>], limit: Int?) async throws -> [Entity]
}

extension EntityPropertyQuery {
    public static var sortingOptions: SortingOptions<Entity> { SortingOptions<Entity> {} }
}

/// How filters combine (App Intents' `EntityQueryComparatorMode`).
public enum EntityQueryComparatorMode: String, Sendable {
    case and, or
}
public typealias ComparatorMode = EntityQueryComparatorMode

/// One sort of a property query (App Intents' `EntityQuerySort`).
public struct EntityQuerySort<Entity>: @unchecked Sendable {
    // @unchecked: a key path literal is immutable.
    public enum Ordering: String, Sendable { case ascending, descending }
    public let by: PartialKeyPath<Entity>
    public let order: Ordering
    public init(by: PartialKeyPath<Entity>, order: Ordering) {
        self.by = by
        self.order = order
    }
}

/// The wire names of entity properties, from key paths (`\BookEntity.$author` → `author`).
/// Filled from the AppIntentsMetadata build-tool plugin's scan before the plugin runs.
public enum EntityPropertyNames {
    private static let lock = Lock()
    nonisolated(unsafe) private static var names: [AnyKeyPath: String] = [:]

    /// Records the name of the property `keyPath` reaches.
    public static func name(_ keyPath: AnyKeyPath, _ name: String) {
        lock.withLock { names[keyPath] = name }
    }

    /// Records every pair (the generated `IntentPlugin.declaredEntityProperties`).
    public static func register(_ pairs: [(AnyKeyPath, String)]) {
        for (keyPath, name) in pairs { Self.name(keyPath, name) }
    }

    static func name(of keyPath: AnyKeyPath) -> String? { lock.withLock { names[keyPath] } }
}

/// The properties a property query filters on (App Intents' `QueryProperties`).
public struct QueryProperties<Entity: AppEntity, Mapped>: @unchecked Sendable {
    // @unchecked: immutable; the comparators' blocks are @Sendable.
    let entries: [QueryPropertyEntry<Mapped>]
    public init(@QueryPropertiesBuilder<Entity, Mapped> properties: () -> [QueryPropertyEntry<Mapped>]) {
        entries = properties()
    }
}

/// The sortable properties (App Intents' `SortingOptions` with `SortableBy`).
public struct SortingOptions<Entity>: @unchecked Sendable {
    // @unchecked: immutable key paths.
    let keyPaths: [PartialKeyPath<Entity>]
    public init(@SortingOptionsBuilder<Entity> _ options: () -> [PartialKeyPath<Entity>]) { keyPaths = options() }
}

/// `SortableBy(\BookEntity.$pages)`.
public struct SortableBy<Entity> {
    let keyPath: PartialKeyPath<Entity>
    public init<Value>(_ keyPath: KeyPath<Entity, EntityProperty<Value>>) { self.keyPath = keyPath }
}

@resultBuilder
public enum SortingOptionsBuilder<Entity> {
    public static func buildExpression(_ option: SortableBy<Entity>) -> [PartialKeyPath<Entity>] { [option.keyPath] }
    public static func buildBlock(_ parts: [PartialKeyPath<Entity>]...) -> [PartialKeyPath<Entity>] { parts.flatMap { $0 } }
}

/// One filterable property: its key path, type and comparators, erased to its mapped type.
public struct QueryPropertyEntry<Mapped>: @unchecked Sendable {
    // @unchecked: immutable; the blocks are @Sendable.
    let keyPath: AnyKeyPath
    let title: String?
    let type: IntentValueType
    let comparators: [(kind: QueryComparatorKind, map: @Sendable (JSON) async throws -> Mapped)]
}

@resultBuilder
public enum QueryPropertiesBuilder<Entity: AppEntity, Mapped> {
    public static func buildExpression<Value>(_ property: QueryProperty<Entity, Value, Mapped>) -> [QueryPropertyEntry<Mapped>] {
        [property.entry]
    }
    public static func buildBlock(_ parts: [QueryPropertyEntry<Mapped>]...) -> [QueryPropertyEntry<Mapped>] { parts.flatMap { $0 } }
}

/// `Property(\BookEntity.$author) { EqualToComparator { … } }` inside `QueryProperties`
/// (App Intents' `QueryProperty`).
public struct QueryProperty<Entity: AppEntity, Value: IntentValue, Mapped> {
    let entry: QueryPropertyEntry<Mapped>
    public init(_ keyPath: KeyPath<Entity, EntityProperty<Value>>,
                @QueryComparatorsBuilder<Value, Mapped> comparators: () -> [QueryComparatorEntry<Value, Mapped>]) {
        let list = comparators()
        entry = QueryPropertyEntry(keyPath: keyPath, title: nil, type: Value.intentValueType, comparators: list.map { c in
            (kind: c.kind, map: { @Sendable json in try await c.map(json) })
        })
    }
}

extension EntityPropertyQuery {
    /// `Property(\BookEntity.$author) { … }` in `properties`.
    public typealias Property<Value: IntentValue> = QueryProperty<Entity, Value, ComparatorMappingType>
}

/// An entity type's property query, erased: its declaration and the lookup from an
/// `ib.entities` body the host has checked.
struct EntityPropertyQueryTable: @unchecked Sendable {
    // @unchecked: immutable; the closures capture the Sendable query.
    let declaration: NewStylePropertyQuery
    let run: @Sendable (JSON) async throws -> [JSON]

    init<Q: EntityPropertyQuery>(_ query: Q) {
        let entries = Q.properties.entries
        let sortable = Q.sortingOptions.keyPaths
        declaration = NewStylePropertyQuery(
            properties: entries.map { entry in
                .init(name: EntityPropertyNames.name(of: entry.keyPath) ?? "", type: entry.type.declaredType,
                      comparators: entry.comparators.map(\.kind.rawValue))
            },
            sortable: sortable.map { EntityPropertyNames.name(of: $0) ?? "" })
        run = { body in
            var mapped: [Q.ComparatorMappingType] = []
            for filter in body["filters"]?.arrayValue ?? [] {
                let name = filter["property"]?.stringValue ?? ""
                let kind = filter["comparator"]?.stringValue ?? ""
                guard let entry = entries.first(where: { EntityPropertyNames.name(of: $0.keyPath) == name }),
                      let comparator = entry.comparators.first(where: { $0.kind.rawValue == kind }) else {
                    throw BusError(.invalidParameters, "\(Q.Entity.entityName) has no comparator \(kind) on \(name)")
                }
                mapped.append(try await comparator.map(filter["value"] ?? .null))
            }
            let sorts: [EntityQuerySort<Q.Entity>] = (body["sort"]?.arrayValue ?? []).compactMap { s in
                guard let keyPath = Q.sortingOptions.keyPaths.first(where: { EntityPropertyNames.name(of: $0) == s["property"]?.stringValue }) else { return nil }
                return EntityQuerySort(by: keyPath, order: s["order"]?.stringValue == "descending" ? .descending : .ascending)
            }
            let limit = body["limit"]?.intValue.map { Int($0) }
            let mode: ComparatorMode = body["mode"]?.stringValue == "or" ? .or : .and
            let found = try await query.entities(matching: mapped, mode: mode, sortedBy: sorts, limit: limit)
            // A query that ignores the limit is held to it.
            return found.prefix(limit ?? found.count).map(\.intentJSON)
        }
    }
}
