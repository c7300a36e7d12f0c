import Foundation
import IntentBus

// Declarations that break one of Apple's metadata rules each, written with the App
// Intents API, for the rule tests (NEWSTYLE_RULE=<name>, AppIntentsRulesTests).

/// `untitled`: a parameter without a title.
struct UntitledParameterIntent: AppIntent {
    static let title: LocalizedStringResource = "Untitled parameter"
    @Parameter(title: "") var note: String?
    func perform() async throws -> some IntentResult { .result() }
}

/// `entity`: an entity without a type display representation.
struct NamelessEntity: AppEntity {
    static let typeDisplayRepresentation: TypeDisplayRepresentation = ""
    static let defaultQuery = NamelessQuery()
    let id: Int
    var displayRepresentation: DisplayRepresentation { "Nameless \(id)" }
}

struct NamelessQuery: EntityQuery {
    func entities(for identifiers: [Int]) async throws -> [NamelessEntity] { identifiers.map(NamelessEntity.init) }
}

struct NamelessEntityIntent: AppIntent {
    static let title: LocalizedStringResource = "Nameless entity"
    @Parameter(title: "Thing") var thing: NamelessEntity
    func perform() async throws -> some IntentResult { .result() }
}

/// `phrase`: a phrase with neither the application name nor a parameter.
struct BarePhraseShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: DefaultsIntent(), phrases: ["Fokus starten"], shortTitle: "Fokus", systemImageName: "timer")
    }
}

/// `eleven`: more than 10 shortcuts.
struct ElevenShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        for n in 1...11 {
            // Phrases interpolate only the application name and parameters: the number
            // goes in through the wire form.
            AppShortcut(intentIdentifier: "DefaultsIntent", phrases: ["${applicationName} Nummer \(n)"], shortTitle: "Nr. \(n)")
        }
    }
}

/// Adds the declaration that breaks `rule`.
func declareBrokenRule(_ rule: String, on plugin: IntentPlugin) {
    switch rule {
    case "untitled": plugin.register(UntitledParameterIntent.self)
    case "entity": plugin.register(NamelessEntityIntent.self)
    case "phrase": plugin.register(shortcuts: BarePhraseShortcuts.self)
    case "eleven": plugin.register(shortcuts: ElevenShortcuts.self)
    default: break
    }
}
