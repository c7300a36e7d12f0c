import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A plugin that serves new-style intents, on top of `PluginRuntime`:
///
/// ```swift
/// let plugin = try IntentPlugin()
/// plugin.register(StartFocusSessionIntent.self)
/// plugin.runtime.on("LegacyIntent", style: .plain) { … }   // legacy handlers beside it
/// plugin.run()
/// ```
///
/// `register` adds the intent's handler (`runtime.on(identifier, style: .new)`, and the
/// legacy name too for a `MigratedAppIntent`), its entities and enums, and keeps
/// `runtime.metadata.new_style` (sent in HELLO) up to date. Entity queries from the host
/// (`ib.entities`) are answered from the registered entities' default queries.
///
/// Describe mode: with `INTENTBUS_DESCRIBE=1` in the environment, `run()` prints the
/// HELLO declarations (`plugin`, `intents`, `metadata`) as JSON on stdout and exits 0,
/// without connecting; `intentbus validate` uses it.
///
/// Registration is not thread-safe and must finish before `run()`.
public final class IntentPlugin {
    /// The underlying runtime, for plain or legacy handlers beside the new-style ones.
    public let runtime: PluginRuntime
    private var intents: [NewStyleIntent] = []
    private var entities: [String: EntityDescriptor] = [:]
    private var enums: [String: EnumDescriptor] = [:]
    private var answersEntityQueries = false
    /// The app shortcuts (`register(shortcuts:)`), sent in HELLO.
    var appShortcuts: [NewStyleShortcut] = [] { didSet { updateMetadata() } }

    /// The intent name the host uses to forward entity queries to a plugin.
    public static let entityQueryIntent = "ib.entities"

    /// Reads the host's environment, like `PluginRuntime`; in describe mode the
    /// connection variables may be missing.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PluginStartError) {
        runtime = try PluginRuntime(environment: environment)
    }

    /// Serves `type`'s requests with `perform()` and declares it in HELLO.
    public func register<I: AppIntent>(_ type: I.Type) {
        let declaration = IntentReflection.describe(I.self)
        var entry = declaration.intent
        let handler: PluginHandler = { request, context in
            try await IntentRunner.perform(I.self, request: request, context: context)
        }
        runtime.on(I.identifier, style: .new, handler)
        if let migrated = I.self as? any MigratedAppIntent.Type {
            entry.migratedFrom = migrated.migratedFrom
            // The new handler wins for the migrated name (registered after any legacy one).
            runtime.on(migrated.migratedFrom, style: .new, handler)
        }
        if let implementing = I.self as? any AssistantSchemaIntent.Type {
            entry.schema = implementing.schema.name
            runtime.on(implementing.schema.name, style: .new, handler)  // clients call the schema by name
        }
        intents.append(entry)
        for e in declaration.entities { entities[e.name] = e }
        for e in declaration.enums { enums[e.name] = e }
        if !declaration.entities.isEmpty { installEntityQueries() }
        updateMetadata()
    }

    /// Makes an entity type queryable through `ib.entities` even when no parameter uses it.
    public func register<E: AppEntity>(entity type: E.Type) {
        let descriptor = EntityDescriptor(E.self)
        entities[descriptor.name] = descriptor
        installEntityQueries()
        updateMetadata()
    }

    /// The new-style declarations as they stand: intents in registration order, entities
    /// and enums by name.
    public var declarations: NewStyleSection {
        NewStyleSection(intents: intents,
                        entities: entities.keys.sorted().map { entities[$0]!.declaration },
                        enums: enums.keys.sorted().map { enums[$0]!.declaration },
                        shortcuts: appShortcuts)
    }

    /// The declarations as sent in HELLO: `metadata.new_style`.
    public var metadata: JSON { declarations.json }

    /// Keeps other sections of the HELLO metadata (legacy SDKs may add theirs).
    private func updateMetadata() { runtime.metadata = runtime.metadata.addingFields(["new_style": metadata]) }

    /// Serves requests, or prints the declarations in describe mode. Never returns.
    public func run() -> Never {
        updateMetadata()
        runtime.run()
    }

    private func installEntityQueries() {
        guard !answersEntityQueries else { return }
        answersEntityQueries = true
        runtime.on(Self.entityQueryIntent, style: .plain) { [entitiesSnapshot = EntityTable(self)] request, _ in
            try await entitiesSnapshot.answer(request.parameters)
        }
    }

    /// The entity descriptors, read when a query arrives (after registration finished).
    private final class EntityTable: @unchecked Sendable {
        // @unchecked: holds the plugin, whose tables are only written before run() and
        // only read after it, as documented on IntentPlugin.
        private unowned let plugin: IntentPlugin
        init(_ plugin: IntentPlugin) { self.plugin = plugin }

        func answer(_ body: JSON) async throws -> PluginReply {
            let name = body["entity"]?.stringValue ?? ""
            guard let entity = plugin.entities[name] else {
                throw BusError(.invalidParameters, "this plugin has no entity type \"\(name)\" (it has: \(plugin.entities.keys.sorted().joined(separator: ", ")))")
            }
            let query = body["query"]?.stringValue ?? "suggested"
            let results: [JSON]
            switch query {
            case "ids":
                let ids = (body["ids"]?.arrayValue ?? []).map(\.displayText)
                results = try await entity.byIds(ids)
            case "suggested":
                results = try await entity.suggested()
            case "matching":
                guard let matching = entity.matching else {
                    throw BusError(.invalidParameters, "\(name) has no string query (entities(matching:)); look it up by id or ask for suggestions")
                }
                results = try await matching(body["text"]?.stringValue ?? "")
            case "all":
                guard let all = entity.all else {
                    throw BusError(.invalidParameters, "\(name) can't list all its entities (no allEntities()); ask for suggestions")
                }
                results = try await all()
            default:
                throw BusError(.invalidParameters, "query is ids, suggested, matching or all; got \"\(query)\"")
            }
            return .success(["entity": .string(name), "query": .string(query), "results": .array(results)])
        }
    }
}

/// Reads an intent type's declaration through its property wrappers.
package enum IntentReflection {
    struct Declaration {
        let intent: NewStyleIntent
        let entities: [EntityDescriptor]
        let enums: [EnumDescriptor]
    }

    /// The `@Parameter`s of an intent instance, by wire name, in declaration order.
    package static func parameters(of intent: some AppIntent) -> [(String, any AnyIntentParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, let p = child.value as? any AnyIntentParameter else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, p)
        }
    }

    static func describe<I: AppIntent>(_ type: I.Type) -> Declaration {
        let params = parameters(of: I())
        var entities: [EntityDescriptor] = [], enums: [EnumDescriptor] = []
        for (_, p) in params {
            switch p.valueType {
            case .entity(let e): entities.append(e)
            case .enumeration(let e): enums.append(e)
            default: break
            }
        }
        let intent = NewStyleIntent(identifier: I.identifier, title: I.title, description: I.description.text,
                                    category: I.description.categoryName, authentication: I.authenticationPolicy,
                                    parameters: params.map { $0.1.declaration(name: $0.0) })
        return Declaration(intent: intent, entities: entities, enums: enums)
    }
}

/// Runs one request: bind the parameters, perform, and restart after a needs-value error.
enum IntentRunner {
    /// How often one request may restart `perform()` after needs-value errors.
    static let maxRestarts = 10

    static func perform<I: AppIntent>(_ type: I.Type, request: PluginRequest, context: PluginContext) async throws -> PluginReply {
        var values = request.parameters.objectValue ?? [:]
        var restarts = 0
        while true {
            let intent = I()
            let params = IntentParameterTable.of(I.self)?.parameters(of: intent) ?? IntentReflection.parameters(of: intent)
            do {
                let result = try await IntentQuestions.$context.withValue(context) {
                    for (name, parameter) in params {
                        try await parameter.bind(name: name, json: values[name], context: context)
                    }
                    return try await intent.perform()
                }
                return PluginReply(status: .success, body: result.json, header: result.donationHeader)
            } catch let needs as NeedsValueError {
                restarts += 1
                guard restarts <= maxRestarts else {
                    throw BusError(.invalidParameters, "parameter \(needs.parameter) still has no usable value after \(maxRestarts) answers",
                                   details: ["parameter": .string(needs.parameter)])
                }
                // Ask, then run perform() again from the start with the answer.
                values[needs.parameter] = try await context.prompt(needs.prompt)
            }
        }
    }
}
