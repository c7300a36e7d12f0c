import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A plugin that serves new-style intents, on top of `PluginRuntime`. Its main names
/// what it serves in one call, the counterpart of Apple's build-time metadata extractor:
///
/// ```swift
/// IntentPlugin.serve(intents: [StartFocusSessionIntent.self, OpenProjectIntent.self],
///                    entities: [ProjectEntity.self], shortcuts: FocusFlowShortcuts.self)
/// ```
///
/// or, with plain or legacy handlers beside the new-style ones:
///
/// ```swift
/// let plugin = try IntentPlugin()
/// plugin.register(StartFocusSessionIntent.self)
/// plugin.runtime.on("LegacyIntent", style: .plain) { … }
/// plugin.run()
/// ```
///
/// `register` adds the intent's handler (`runtime.on(identifier, style: .new)`, and the
/// legacy name too for a `CustomIntentMigratedAppIntent`), its entities and enums, and keeps
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
        let table = IntentParameterTable.of(I.self)
        let handler: PluginHandler = { request, context in
            try await IntentRunner.perform(I.self, table: table, request: request, context: context)
        }
        runtime.on(I.persistentIdentifier, style: .new, handler)
        if let migrated = I.self as? any CustomIntentMigratedAppIntent.Type {
            entry.migratedFrom = migrated.intentClassName
            // The new handler wins for the migrated name (registered after any legacy one).
            runtime.on(migrated.intentClassName, style: .new, handler)
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

    /// Serves `intents`, `entities` (beside those the intents' parameters use) and the
    /// app shortcuts of `shortcuts`, with string tables from `localizations` (a folder of
    /// `.lproj` folders and `.xcstrings` files): the plugin's main in one call. Exits the
    /// process as `run()` does; a plugin started without the host's environment exits 2.
    public static func serve(intents: [any AppIntent.Type], entities: [any AppEntity.Type] = [],
                             shortcuts: (any AppShortcutsProvider.Type)? = nil, localizations: URL? = nil) -> Never {
        let plugin: IntentPlugin
        do {
            plugin = try IntentPlugin()
        } catch {
            FileHandle.standardError.write(Data("\(CommandLine.arguments.first ?? "plugin"): \(error)\n".utf8))
            exit(2)
        }
        if let localizations { LocalizationTables.shared.load(directory: localizations) }
        for intent in intents { plugin.register(intent) }
        for entity in entities { plugin.register(entity: entity) }
        if let shortcuts { plugin.register(shortcuts: shortcuts) }
        plugin.run()
    }

    /// Serves the AppIntents, AppEntities and the AppShortcutsProvider among `declaredTypes`
    /// (every type a target declares, as the AppIntentsMetadata build-tool plugin lists
    /// them; the others are skipped), like `serve(intents:entities:shortcuts:localizations:)`.
    /// Two shortcut providers are a mistake, as in an app: the plugin exits 2 naming them.
    public static func serve(declaredTypes: [Any.Type], entityProperties: [(AnyKeyPath, String)] = [],
                             localizations: URL? = nil) -> Never {
        EntityPropertyNames.register(entityProperties)
        let providers = declaredTypes.compactMap { $0 as? any AppShortcutsProvider.Type }
        if providers.count > 1 {
            let names = providers.map { String(describing: $0) }.joined(separator: ", ")
            FileHandle.standardError.write(Data("\(CommandLine.arguments.first ?? "plugin"): \(providers.count) AppShortcutsProvider types (\(names)); a plugin has one\n".utf8))
            exit(2)
        }
        serve(intents: declaredTypes.compactMap { $0 as? any AppIntent.Type },
              entities: declaredTypes.compactMap { $0 as? any AppEntity.Type },
              shortcuts: providers.first, localizations: localizations)
    }

    /// Serves requests, or prints the declarations in describe mode. Never returns.
    public func run() -> Never {
        updateMetadata()
        runtime.run()
    }

    private func installEntityQueries() {
        guard !answersEntityQueries else { return }
        answersEntityQueries = true
        runtime.on(Self.entityQueryIntent, style: .plain) { [entitiesSnapshot = EntityTable(self)] request, _ in
            try await IntentLocale.$request.withValue(request.header["locale"]?.stringValue) {
                try await entitiesSnapshot.answer(request.parameters)
            }
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
            case "property":
                guard let property = entity.property else {
                    throw BusError(.invalidParameters, "\(name) has no property query (EntityPropertyQuery)")
                }
                results = try await property.run(body)
            default:
                throw BusError(.invalidParameters, "query is ids, suggested, matching, all or property; got \"\(query)\"")
            }
            return .success(["entity": .string(name), "query": .string(query), "results": .array(results)])
        }
    }
}
