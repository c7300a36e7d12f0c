import AppIntents

// FocusFlow: seed 003's App Intents code as the seed writes it (StartFocusSessionIntent,
// ProjectEntity and ProjectQuery, FocusFlowShortcuts, SearchProjectsIntent,
// EditProjectIntent), OpenProjectIntent and CreateProjectIntent beside it, and the app's
// model (FocusSessionManager, ProjectStore, ProjectRouter). The one call below is what
// Apple's metadata extractor finds at build time: the intents, entities and shortcuts.
// English clients (REQUEST header locale "en") get the texts of Localizations/en.lproj.
IntentPlugin.serve(
    intents: [StartFocusSessionIntent.self, OpenProjectIntent.self, SearchProjectsIntent.self,
              EditProjectIntent.self, CreateProjectIntent.self],
    entities: [ProjectEntity.self],
    shortcuts: FocusFlowShortcuts.self,
    localizations: Bundle.module.url(forResource: "Localizations", withExtension: nil))
