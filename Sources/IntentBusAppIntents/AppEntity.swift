import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A data object that intents take as parameters or return (App Intents' `AppEntity`):
/// a stable `id` of any `EntityIdentifierConvertible` type (UUID, String, Int), a
/// display representation, a type display representation and a query.
///
/// Ids must be stable across restarts: clients store them (saved shortcuts keep the id),
/// and an id that changes breaks them. On the wire an id is its `entityIdentifierString`.
public protocol AppEntity: IntentValue, Identifiable where ID: EntityIdentifierConvertible {
    /// The name of the entity type for people ("Projekt"). Required: the host rejects an
    /// entity without one, as Apple's metadata extractor does.
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    /// The entity type's name on the wire; the Swift type name unless overridden.
    static var entityName: String { get }
    /// How this entity is shown.
    var displayRepresentation: DisplayRepresentation { get }
    /// The query type that finds entities of this type.
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    /// The query the host's `ib.entities` and parameter resolution use.
    static var defaultQuery: DefaultQuery { get }
}

/// An id type of entities: its text on the wire and back (App Intents'
/// `EntityIdentifierConvertible`).
public protocol EntityIdentifierConvertible: Sendable, Hashable {
    /// The id as text.
    var entityIdentifierString: String { get }
    /// The id of `entityIdentifierString`, or nil when the text is not one.
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    public var entityIdentifierString: String { self }
    public static func entityIdentifier(for entityIdentifierString: String) -> String? { entityIdentifierString }
}

extension Int: EntityIdentifierConvertible {
    public var entityIdentifierString: String { String(self) }
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? { Int(entityIdentifierString) }
}

extension UUID: EntityIdentifierConvertible {
    public var entityIdentifierString: String { uuidString }
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? { UUID(uuidString: entityIdentifierString) }
}

/// Finds entities by id, and offers suggestions (App Intents' `EntityQuery`).
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity
    /// The entities with these ids, in any order. Unknown ids are skipped, not errors.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
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
    /// Ids looked up among all the entities, when the query does not write its own.
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        let wanted = Set(identifiers)
        return try await allEntities().filter { wanted.contains($0.id) }
    }
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
    /// The property query (`EntityPropertyQuery`), with what it declares.
    let property: EntityPropertyQueryTable?

    /// Describes `type` and captures its default query.
    public init<E: AppEntity>(_ type: E.Type) {
        name = E.entityName
        typeDisplayName = E.typeDisplayRepresentation.name.sourceText
        let query = E.defaultQuery
        byIds = { ids in try await query.entities(for: ids.compactMap(E.ID.entityIdentifier(for:))).map(\.intentJSON) }
        suggested = { try await query.suggestedEntities().map(\.intentJSON) }
        if let stringQuery = query as? any EntityStringQuery {
            matching = { text in try await E.matching(text, stringQuery).map(\.intentJSON) }
        } else {
            matching = nil
        }
        if let enumerable = query as? any EnumerableEntityQuery {
            all = { try await enumerable.allEntities().compactMap { ($0 as? E)?.intentJSON } }
        } else {
            all = nil
        }
        property = (query as? any EntityPropertyQuery).map { EntityPropertyQueryTable($0) }
    }

    /// The entity type's declaration in the metadata: every query answers ids and
    /// suggestions; text and listing all as the query type can.
    var declaration: NewStyleEntity {
        NewStyleEntity(name: name, typeDisplayName: typeDisplayName, ids: true, suggested: true,
                       matching: matching != nil, all: all != nil, propertyQuery: property?.declaration)
    }
}

extension AppEntity {
    public static var entityName: String { String(describing: Self.self) }
    public static var intentValueType: IntentValueType { .entity(EntityDescriptor(Self.self)) }

    public var intentJSON: JSON {
        var o = intentOption.objectValue ?? [:]
        o["type"] = .string(Self.entityName)
        let properties = EntityPropertyReflection.values(of: self)
        if !properties.isEmpty { o["properties"] = .object(properties) }
        return .object(o)
    }

    public var intentOption: JSON {
        var o: [String: JSON] = ["id": .string(id.entityIdentifierString), "title": .string(displayRepresentation.title.resolved())]
        if let subtitle = displayRepresentation.subtitle { o["subtitle"] = .string(subtitle.resolved()) }
        if let image = displayRepresentation.image { o["image"] = image.json }
        return .object(o)
    }

    /// An entity goes in a request by its id.
    public var intentArgument: JSON { .string(id.entityIdentifierString) }

    /// The string query's matches of this type.
    static func matching(_ text: String, _ query: any EntityStringQuery) async throws -> [Self] {
        try await query.entities(matching: text).compactMap { $0 as? Self }
    }

    /// Resolves a wire value: `{"id": …}` by id, `{"text": …}` by the string query, and a
    /// bare string by id first, then as text. Several matches are put to the user as a
    /// disambiguation question when a context is at hand.
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Self {
        var idText: String?, text: String?
        switch json {
        case .string(let s): idText = s; text = s
        case .int: idText = json.displayText
        case .object:
            idText = json["id"]?.stringValue ?? json["id"]?.intValue.map { String($0) }
            text = json["text"]?.stringValue
        default:
            throw wrongType(json, parameter: parameter, expected: "a \(typeDisplayRepresentation.name.resolved()) id or text")
        }
        let query = defaultQuery
        if let idText, let id = ID.entityIdentifier(for: idText),
           let found = try await query.entities(for: [id]).first(where: { $0.id == id }) {
            return found
        }
        if let text, let stringQuery = query as? any EntityStringQuery {
            let matches = try await matching(text, stringQuery)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1, let context {
                let type = typeDisplayRepresentation.name.resolved()
                return try await IntentQuestions.disambiguate(parameter: parameter, among: matches,
                    dialog: "Which \(type) do you mean by \"\(text)\"?", context: context)
            }
        }
        let given = idText ?? text ?? json.displayText
        let type = typeDisplayRepresentation.name.resolved()
        // Nothing matches: ask again, as SiriKit's needsValue would, offering the query's
        // suggestions (the runtime asks and runs perform() again with the answer, a
        // bounded number of times). Without a request to ask in, the error stands.
        if context != nil {
            let suggested = try? await query.suggestedEntities()
            throw noMatch(given, parameter: parameter, type: type, suggested: suggested)
        }
        throw BusError(.invalidParameters, "parameter \(parameter): no \(type) matches \"\(given)\"",
                       details: ["parameter": .string(parameter), "entity": .string(entityName)])
    }

    /// The value question for a text no entity matches: the entity type's fields, the
    /// suggestions as options (at most 100), and a dialog that says what did not match.
    private static func noMatch(_ given: String, parameter: String, type: String, suggested: [Self]?) -> NeedsValueError {
        var prompt = intentValueType.promptFields
        prompt["kind"] = PromptKind.value.json
        prompt["parameter"] = .string(parameter)
        prompt["reason"] = "no_match"
        prompt["dialog"] = .string("No \(type) matches “\(given)”. Which \(type) do you mean?")
        let options = (suggested ?? []).prefix(100).map(\.intentOption)
        if !options.isEmpty { prompt["options"] = .array(options) }
        if let item = IntentQuestions.item { prompt["item"] = .int(Int64(item.index)); prompt["items"] = .int(Int64(item.count)) }
        return NeedsValueError(parameter: parameter, prompt: .object(prompt))
    }
}
