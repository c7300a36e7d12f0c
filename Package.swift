// swift-tools-version:6.0
import PackageDescription

/// Settings applied once to every Swift target, so that the whole package is held
/// to the same rules.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// Example plugins, the ones a user reads: each is its own executable under Sources/Plugins/<Name>.
let examplePlugins = ["Balance", "Messenger", "Chat", "Echo", "FocusFlow", "Cart"]
/// Plugins that exist for the tests (fixtures), beside them under Tests/Plugins/<Name>.
let testPlugins = ["TestPlugin", "LegacyTest", "NewStyleTest", "FlowTest"]

var targets: [Target] = [
    .systemLibrary(
        name: "CZeroMQ", pkgConfig: "libzmq",
        providers: [.apt(["libzmq3-dev"])]),
    .systemLibrary(
        name: "CYAML", pkgConfig: "yaml-0.1",
        providers: [.apt(["libyaml-dev"])]),
    .systemLibrary(
        name: "CSQLite", pkgConfig: "sqlite3",
        providers: [.apt(["libsqlite3-dev"])]),
    // libpq: the PostgreSQL back end of the host's shared state (host.state, docs/scale-out.md).
    .systemLibrary(
        name: "CPostgres", pkgConfig: "libpq",
        providers: [.apt(["libpq-dev"])]),
    // libsodium: libzmq's own CURVE library (already loaded with it); here for SHA-256.
    .systemLibrary(
        name: "CSodium", pkgConfig: "libsodium",
        providers: [.apt(["libsodium-dev"])]),
    .target(name: "CLinuxSupport"),
    // JSON, error codes, message kinds, logging, deadlines: no libzmq (fuzzable alone).
    .target(name: "IntentBusCore"),
    // The one process spawner (host, benchmark, validate): spawn, pidfd, limits, stop, run.
    .target(name: "IntentBusProcess", dependencies: ["IntentBusCore", "CLinuxSupport"]),
    // Sentence templates in hassil's syntax: parser, compiler, matcher; no libzmq, no files
    // (docs/sentences.md).
    .target(name: "IntentBusSentences", dependencies: ["IntentBusCore"]),
    // The ZeroMQ wrapper: context, sockets, frames, poller, CURVE, the mailbox.
    .target(name: "IntentBusZMQ", dependencies: ["IntentBusCore", "CZeroMQ"]),
    // The wire codec: WireMessage and the ROUTER envelope, built on the wrapper's Frame.
    .target(name: "IntentBusWire", dependencies: ["IntentBusCore", "IntentBusZMQ"]),
    // The client: IntentClient, its request options, replies, prompts and events.
    .target(name: "IntentBusClient", dependencies: ["IntentBusCore", "IntentBusZMQ", "IntentBusWire"]),
    // The new-style (App Intents) metadata model: the HELLO declarations as typed values, their
    // JSON (the SDK encodes, the host decodes and checks); no libzmq.
    .target(name: "IntentBusMetadata", dependencies: ["IntentBusCore"]),
    // The plugin SDK, one module per layer: the raw runtime (connect, HELLO, loop, context),
    // the legacy layer (resolve/confirm/handle) and the App Intents layer (perform()), each
    // on the raw runtime only.
    .target(name: "IntentBusPlugin", dependencies: ["IntentBusCore", "IntentBusZMQ", "IntentBusWire", "CLinuxSupport"]),
    .target(name: "IntentBusLegacy", dependencies: ["IntentBusCore", "IntentBusPlugin"]),
    .target(name: "IntentBusAppIntents", dependencies: ["IntentBusCore", "IntentBusPlugin", "IntentBusMetadata"]),
    // The one module a plugin or client author imports: re-exports all of the above.
    .target(name: "IntentBus", dependencies: ["IntentBusCore", "IntentBusZMQ", "IntentBusWire", "IntentBusClient",
                                              "IntentBusMetadata", "IntentBusPlugin", "IntentBusLegacy",
                                              "IntentBusAppIntents"]),
    // The YAML layer (libyaml's events as a marked node tree, the decoder, the emitter) and
    // the manifest it reads (plugins.yaml, drop-ins, host settings); no libzmq, SQLite or
    // libsodium, so the manifest fuzz target links it alone.
    .target(name: "IntentBusManifest", dependencies: ["IntentBusCore", "CYAML"]),
    // The legacy intent definitions: the YAML format and Xcode's, locales and dialog
    // formats, parameter coercion, the standard intents; no router, no libzmq.
    .target(name: "IntentBusDefinitions", dependencies: ["IntentBusCore", "IntentBusManifest", "IntentDefinitionFormat"]),
    // What users taught the host, kept: one SQLiteDatabase, the PostgreSQL back end
    // (host.state), the schema, the choice and shortcut stores and the worker thread they
    // commit on; no libzmq, no router.
    .target(name: "IntentBusStore", dependencies: ["IntentBusCore", "CSQLite", "CPostgres"]),
    .target(name: "PluginHost", dependencies: ["IntentBusCore", "IntentBusZMQ", "IntentBusWire", "IntentBusClient", "IntentBusMetadata",
                                               "IntentBusManifest", "IntentBusDefinitions", "IntentBusSentences",
                                               "IntentBusStore", "IntentBusProcess", "CSodium", "CLinuxSupport"],
            // Release only: the router's state is owned by its one thread, and the run-time
            // exclusivity checks on its class properties cost ~2,000 instructions per request
            // (docs/performance.md). Debug builds, and so the tests, keep the checks.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
    // The declarative command-line parser, usage texts, "did you mean" and completion
    // scripts; no dependencies, so its unit tests need nothing else.
    .target(name: "IntentBusCLI"),
    .executableTarget(name: "intentbus", dependencies: ["IntentBus", "IntentBusProcess", "PluginHost", "IntentBusCLI"]),
    // What the tests share: the test host launcher, the manifest builder, the router core's
    // harness and the fixtures (docs/testing.md). A plain target, so that any test target may use it.
    .target(name: "IntentBusTestSupport", dependencies: ["IntentBus", "PluginHost", "IntentBusProcess"], path: "Tests/IntentBusTestSupport"),
    .testTarget(name: "IntentBusManifestTests", dependencies: ["IntentBusManifest", "IntentBusTestSupport"]),
    .testTarget(name: "IntentBusStoreTests", dependencies: ["IntentBusStore", "IntentBusCore", "IntentBusTestSupport"]),
    .testTarget(name: "IntentBusDefinitionsTests", dependencies: ["IntentBusDefinitions", "IntentBusManifest", "IntentDefinitionFormat", "IntentBusTestSupport"]),
    .testTarget(name: "IntentBusTests", dependencies: ["IntentBus", "IntentBusSentences", "IntentBusProcess", "PluginHost", "IntentBusManifest", "IntentBusDefinitions", "IntentBusStore", "IntentBusCLI", "IntentBusTestSupport"]),
    // The benchmark (docs/performance.md): the driver and load client, the bare zmq_proxy
    // relay and its echo workers (the baseline: one decoding like the SDK, one not decoding
    // at all), the load processes, and a raw echo plugin claiming many intents.
    .executableTarget(name: "intentbus-bench", dependencies: ["IntentBus", "IntentBusProcess"]),
    .executableTarget(name: "bench-relay", dependencies: ["IntentBus"], path: "Sources/BenchRelay"),
    .executableTarget(name: "bench-worker", dependencies: ["IntentBus", "CZeroMQ"], path: "Sources/BenchWorker"),
    // The load generator's processes: lean, so that the generator is not what limits a path.
    .executableTarget(name: "bench-load", dependencies: ["IntentBus", "CZeroMQ"], path: "Sources/BenchLoad"),
    .executableTarget(name: "bench-plugin", dependencies: ["IntentBus"], path: "Sources/BenchPlugin"),
    // `make sentences`: Home Assistant's test sentences through the matcher (docs/sentences.md).
    .executableTarget(name: "sentence-corpus", dependencies: ["PluginHost", "IntentBus", "IntentBusSentences"], path: "Sources/SentenceCorpus"),
    // The Swift side of the differential JSON fuzzer (docs/reliability.md).
    .executableTarget(name: "json-canonical", dependencies: ["IntentBus"], path: "Sources/JSONCanonical"),
    // `make scale-out` (docs/scale-out.md): three hosts, four failing-over clients, hosts killed at random.
    .executableTarget(name: "intentbus-scale-out", dependencies: ["IntentBus", "IntentBusProcess"], path: "Sources/ScaleOut"),
]
// SiriKit (issue 26), one block for an easy merge: Xcode's .intentdefinition format (read,
// localize, write; Foundation and IntentBusCore only, no libzmq or SQLite), used by the host.
targets += [
    .target(name: "IntentDefinitionFormat", dependencies: ["IntentBusCore"]),
    // Apple's Intents API for an extension brought over unchanged, on the legacy layer.
    .target(name: "Intents", dependencies: ["IntentBusCore", "IntentBusPlugin", "IntentBusLegacy", "IntentBusAppIntents", "IntentBusClient"]),
    // Writes the Swift Xcode generates from an .intentdefinition (StatusIntent, …Response,
    // …Handling); run at build time by the IntentDefinitionPlugin build-tool plugin.
    .executableTarget(name: "intentbus-intentgen", dependencies: ["IntentDefinitionFormat", "IntentBusDefinitions", "IntentBusCore"]),
    .plugin(name: "IntentDefinitionPlugin", capability: .buildTool(), dependencies: ["intentbus-intentgen"]),
    // The FONIC balance plugin as a SiriKit extension: seed 000's handler, unchanged.
    .executableTarget(name: "plugin-balance-sirikit", dependencies: ["Intents"], path: "Sources/Plugins/BalanceSiriKit",
                      plugins: ["IntentDefinitionPlugin"]),
    // Its test fixture: an extension whose handler misuses its completion on request.
    .executableTarget(name: "plugin-sirikittest", dependencies: ["Intents"], path: "Tests/Plugins/SiriKitTest",
                      plugins: ["IntentDefinitionPlugin"]),
]
// The example plugins with legacy intents are SiriKit extensions on the classes generated
// from their YAML definitions (a link to definitions/<name>.yaml in each target): one way
// to write a legacy handler in Swift (docs/sirikit.md).
let extensionPlugins = ["plugin-balance", "plugin-messenger", "plugin-cart"]
for name in ["PluginHost", "IntentBusTests"] {
    if let index = targets.firstIndex(where: { $0.name == name }) { targets[index].dependencies.append("IntentDefinitionFormat") }
}
for name in examplePlugins {
    targets.append(.executableTarget(
        name: "plugin-\(name.lowercased())", dependencies: ["IntentBus"],
        path: "Sources/Plugins/\(name)"))
}
for index in targets.indices where extensionPlugins.contains(targets[index].name) {
    targets[index].dependencies.append("Intents")
    targets[index].plugins = (targets[index].plugins ?? []) + ["IntentDefinitionPlugin"]
}
for name in testPlugins {
    targets.append(.executableTarget(
        name: "plugin-\(name.lowercased())", dependencies: ["IntentBus"],
        path: "Tests/Plugins/\(name)"))
}
for index in targets.indices where ![.system, .plugin].contains(targets[index].type) && targets[index].name != "CLinuxSupport" {
    targets[index].swiftSettings = (targets[index].swiftSettings ?? []) + strictSettings
}

let package = Package(
    name: "IntentBus",
    products: [
        .library(name: "IntentBus", targets: ["IntentBus"]),
        .executable(name: "intentbus", targets: ["intentbus"]),
        .library(name: "Intents", targets: ["Intents"]),
        .plugin(name: "IntentDefinitionPlugin", targets: ["IntentDefinitionPlugin"]),
    ],
    targets: targets
)

// `import AppIntents` (issue 27, docs/appintents.md): Apple's App Intents API, a product
// of its own; the types are IntentBusAppIntents', re-exported with Foundation. FocusFlow is
// seed 003's App Intents code as written: it imports AppIntents, carries its string
// tables, and builds in the Swift 5 language mode that code was written for (its
// `static var defaultQuery = ProjectQuery()` is an error in Swift 6 mode, on Apple's
// platforms too).
package.targets.append(.target(name: "AppIntents", dependencies: ["IntentBusAppIntents", "IntentBusMetadata"], swiftSettings: strictSettings))
for target in package.targets where target.name == "plugin-focusflow" {
    target.dependencies.append("AppIntents")
    target.resources = [.copy("Localizations")]
    target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v5)]
}
package.products.append(.library(name: "AppIntents", targets: ["AppIntents"]))

// Finding the declarations at build time (docs/appintents.md): the AppIntentsMetadata
// build-tool plugin runs intentbus-appintents-scan over a target's sources; FocusFlow's
// main is then `IntentPlugin.serve(localizations:)`, naming nothing.
package.targets += [
    .executableTarget(name: "intentbus-appintents-scan", swiftSettings: strictSettings),
    .plugin(name: "AppIntentsMetadataPlugin", capability: .buildTool(), dependencies: ["intentbus-appintents-scan"]),
]
for target in package.targets where ["plugin-focusflow", "plugin-newstyletest"].contains(target.name) {
    target.plugins = (target.plugins ?? []) + [.plugin(name: "AppIntentsMetadataPlugin")]
}
package.products.append(.plugin(name: "AppIntentsMetadataPlugin", targets: ["AppIntentsMetadataPlugin"]))
