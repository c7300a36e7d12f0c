import Foundation
import IntentBus

// FocusFlow, after seed 003 (App Intents): focus sessions and projects, all new style.
// Projects are entities with stable ids, persisted in FOCUSFLOW_DATA (see ProjectStore).
do {
    let plugin = try IntentPlugin()
    plugin.register(StartFocusSessionIntent.self)
    plugin.register(OpenProjectIntent.self)
    plugin.register(SearchProjectsIntent.self)
    plugin.register(CreateProjectIntent.self)
    plugin.register(ProjectSearchIntent.self)
    plugin.register(shortcuts: FocusFlowShortcuts.self)
    plugin.run()
} catch {
    print("plugin-focusflow: \(error)")
    exit(2)
}
