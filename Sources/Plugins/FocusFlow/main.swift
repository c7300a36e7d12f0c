import AppIntents

// FocusFlow: seed 003's App Intents code as the seed writes it (StartFocusSessionIntent,
// ProjectEntity and ProjectQuery, FocusFlowShortcuts, SearchProjectsIntent,
// EditProjectIntent), OpenProjectIntent and CreateProjectIntent beside it, and the app's
// model (FocusSessionManager, ProjectStore, ProjectRouter). What it serves is found at
// build time, as Apple's metadata extractor finds it: the AppIntentsMetadata build-tool
// plugin names every type of this target, and serve(localizations:) keeps the intents,
// entities and the shortcuts provider among them (docs/appintents.md).
// English clients (REQUEST header locale "en") get the texts of Localizations/en.lproj.
// Die Quelltexte sind deutsch: Daten ohne Locale der Anfrage auf Deutsch (docs/appintents.md).
IntentLocale.developmentRegion = "de_DE"
IntentPlugin.serve(localizations: Bundle.module.url(forResource: "Localizations", withExtension: nil))
