import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// How an entity is shown to people: a title and an optional subtitle.
public struct DisplayRepresentation: Sendable, Hashable {
    public var title: String
    public var subtitle: String?

    public init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
    }
}

/// A data object that intents take as parameters or return (App Intents' `AppEntity`):
/// a stable `id`, a display representation, a type display name and a query.
///
/// Ids must be stable across restarts: clients store them (saved shortcuts keep the id),
/// and an id that changes breaks them.
public protocol AppEntity: IntentValue, Identifiable where ID == String {
    /// The name of the entity type for people ("Project").
    static var typeDisplayName: String { get }
    /// The entity type's name on the wire; the Swift type name unless overridden.
    static var entityName: String { get }
    /// How this entity is shown.
    var displayRepresentation: DisplayRepresentation { get }
    /// The query type that finds entities of this type.
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    /// The query the host's `ib.entities` and parameter resolution use.
    static var defaultQuery: DefaultQuery { get }
}

/// Finds entities by id, and offers suggestions (App Intents' `EntityQuery`).
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity
    /// The entities with these ids, in any order. Unknown ids are skipped, not errors.
    func entities(for identifiers: [String]) async throws -> [Entity]
    /// A few entities to offer before the user types anything. Defaults to none.
    func suggestedEntities() async throws -> [Entity]
}

/// A query that can also find entities by free text (`EntityStringQuery`). Without it,
/// an entity parameter can only be given by id.
public protocol EntityStringQuery: EntityQuery {
    /// The entities whose name matches `string`.
    func entities(matching string: String) async throws -> [Entity]
}

/// A query over a small set that can list every entity (`EnumerableEntityQuery`).
public protocol EnumerableEntityQuery: EntityQuery {
    /// Every entity of the type.
    func allEntities() async throws -> [Entity]
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
}

extension EnumerableEntityQuery {
    public func suggestedEntities() async throws -> [Entity] { try await allEntities() }
}

/// An entity type with its query, erased so that the runtime can describe it and answer
/// `ib.entities` without knowing the Swift type.
public struct EntityDescriptor: Sendable {
    public let name: String
    public let typeDisplayName: String
    let byIds: @Sendable ([String]) async throws -> [JSON]
    let suggested: @Sendable () async throws -> [JSON]
    let matching: (@Sendable (String) async throws -> [JSON])?
    let all: (@Sendable () async throws -> [JSON])?

    /// Describes `type` and captures its default query.
    public init<E: AppEntity>(_ type: E.Type) {
        name = E.entityName
        typeDisplayName = E.typeDisplayName
        let query = E.defaultQuery
        byIds = { ids in try await query.entities(for: ids).map(\.intentJSON) }
        suggested = { try await query.suggestedEntities().map(\.intentJSON) }
        if let stringQuery = query as? any EntityStringQuery {
            matching = { text in try await stringQuery.entities(matching: text).map(\.intentJSON) }
        } else {
            matching = nil
        }
        if let enumerable = query as? any EnumerableEntityQuery {
            all = { try await enumerable.allEntities().map(\.intentJSON) }
        } else {
            all = nil
        }
    }

    /// The entity type's declaration in the metadata: every query answers ids and
    /// suggestions; text and listing all as the query type can.
    var declaration: NewStyleEntity {
        NewStyleEntity(name: name, typeDisplayName: typeDisplayName, ids: true, suggested: true,
                       matching: matching != nil, all: all != nil)
    }
}

extension AppEntity {
    public static var entityName: String { String(describing: Self.self) }
    public static var intentValueType: IntentValueType { .entity(EntityDescriptor(Self.self)) }

    public var intentJSON: JSON {
        var o: [String: JSON] = ["id": .string(id), "title": .string(displayRepresentation.title),
                                 "type": .string(Self.entityName)]
        if let subtitle = displayRepresentation.subtitle { o["subtitle"] = .string(subtitle) }
        return .object(o)
    }

    public var intentOption: JSON {
        var o: [String: JSON] = ["id": .string(id), "title": .string(displayRepresentation.title)]
        if let subtitle = displayRepresentation.subtitle { o["subtitle"] = .string(subtitle) }
        return .object(o)
    }

    /// Resolves a wire value: `{"id": …}` by id, `{"text": …}` by the string query, and a
    /// bare string by id first, then as text. Several matches are put to the user as a
    /// disambiguation question when a context is at hand.
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Self {
        var id: String?, text: String?
        switch json {
        case .string(let s): id = s; text = s
        case .int: id = json.displayText
        case .object:
            id = json["id"]?.stringValue
            text = json["text"]?.stringValue
        default:
            throw wrongType(json, parameter: parameter, expected: "a \(typeDisplayName) id or text")
        }
        let query = defaultQuery
        if let id, let found = try await query.entities(for: [id]).first(where: { $0.id == id }) { return found }
        if let text, let stringQuery = query as? any EntityStringQuery {
            let matches = try await stringQuery.entities(matching: text).compactMap { $0 as? Self }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1, let context {
                return try await IntentQuestions.disambiguate(parameter: parameter, among: matches,
                    dialog: "Which \(typeDisplayName.lowercased()) do you mean by \"\(text)\"?", context: context)
            }
        }
        let given = id ?? text ?? json.displayText
        throw BusError(.invalidParameters, "parameter \(parameter): no \(typeDisplayName) matches \"\(given)\"",
                       details: ["parameter": .string(parameter), "entity": .string(entityName)])
    }
}
