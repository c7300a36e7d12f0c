import Foundation
import IntentBus

// The plugin the results, snippets, authentication-policy and schema tests run
// (Tests/IntentBusTests/FlowEndToEndTests.swift). Intents in FlowIntents.swift; the
// legacy HandOverIntent's definition is Tests/Plugins/definitions/flowtest.yaml.
// FLOW_BAD_SCHEMA=1 registers an intent whose parameters do not match system.search.
do {
    let plugin = try IntentPlugin()
    if ProcessInfo.processInfo.environment["FLOW_BAD_SCHEMA"] == "1" {
        plugin.register(BadSearchIntent.self)
    } else {
        plugin.register(SearchItemsIntent.self)
    }
    plugin.register(OpenItemIntent.self)
    plugin.register(SendNoteIntent.self)
    plugin.register(FindAndOpenIntent.self)
    plugin.register(FindThenAskIntent.self)
    plugin.register(PingIntent.self)
    plugin.register(PongIntent.self)
    plugin.register(OpenNowhereIntent.self)
    plugin.register(OpenLockedIntent.self)
    plugin.register(BadViewIntent.self)
    plugin.register(LockedIntent.self)
    plugin.register(LocalOnlyIntent.self)
    plugin.runtime.onLegacy(["HandOverIntent"]) { _ in HandOverHandler() }
    plugin.run()
} catch {
    print("plugin-flowtest: \(error)")
    exit(2)
}
