import Foundation
import IntentBus

// A new-style plugin for the end-to-end tests, with plain (legacy-era) handlers beside the
// new-style ones:
//   DefaultsIntent, RequiredIntent, QuestionsIntent, PickItemIntent, SecretIntent  new style
//   GreetAppIntent (migrates LegacyGreetIntent)                                     new style
//   LegacyGreetIntent, LegacyFarewellIntent                                         plain
// NEWSTYLE_NO_MIGRATION=1 leaves LegacyGreetIntent to its plain handler (migration rolled back).
// NEWSTYLE_BROKEN=1 adds intents with invalid metadata (default outside its range, a
// parameter without a title, a duplicate identifier); NEWSTYLE_BROKEN=noquery drops an
// entity type's query from the metadata.
// NEWSTYLE_RULE=untitled|entity|phrase|eleven adds a declaration that breaks that one of
// Apple's metadata rules (RuleIntents.swift).
// NEWSTYLE_PRESENTATION=1 adds PlanSessionIntent and ContactIntent (PresentationIntents.swift);
// with NEWSTYLE_BROKEN=summary their metadata is broken in the wire form.
// NEWSTYLE_SHORTCUTS=<JSON array of {intent, phrases, short_title}> declares those app
// shortcuts as given, valid or not (the shortcut tests).
let env = ProcessInfo.processInfo.environment

do {
    let plugin = try IntentPlugin()
    let runtime = plugin.runtime
    runtime.on("LegacyGreetIntent") { request, _ in
        let name = request.parameters["name"]?.displayText ?? "you"
        return .success(["dialog": .string("Hi \(name) (legacy)"), "style": "plain"])
    }
    runtime.on("LegacyFarewellIntent") { request, _ in
        let name = request.parameters["name"]?.displayText ?? "you"
        return .success(["dialog": .string("Goodbye \(name)"), "style": "plain"])
    }
    plugin.register(DefaultsIntent.self)
    plugin.register(RequiredIntent.self)
    plugin.register(QuestionsIntent.self)
    plugin.register(PickItemIntent.self)
    plugin.register(SecretIntent.self)
    // Opt-in, so that the other suites see the intent set they count.
    if env["NEWSTYLE_DATES"] == "1" { plugin.register(ScheduleIntent.self) }
    if env["NEWSTYLE_LISTS"] == "1" {
        plugin.register(BasketIntent.self)
        plugin.register(LevelIntent.self)
        plugin.register(PauseIntent.self)
    }
    if env["NEWSTYLE_NO_MIGRATION"] != "1" { plugin.register(GreetAppIntent.self) }
    if let text = env["NEWSTYLE_SHORTCUTS"], let list = (try? JSON.parse(text))?.arrayValue {
        plugin.register(shortcuts: list.map { s in
            AppShortcut(intentIdentifier: s["intent"]?.stringValue ?? "",
                        phrases: (s["phrases"]?.arrayValue ?? []).map { $0.stringValue ?? "" },
                        shortTitle: s["short_title"]?.stringValue ?? "")
        })
    }
    if env["NEWSTYLE_CONTEXT"] == "1" { plugin.register(shortcuts: ContextShortcuts.self) }
    if env["NEWSTYLE_APPINTENTS"] == "1" {
        AppDependencyManager.shared.add(dependency: VisitCounter())
        plugin.register(GreetingIntent.self)
        plugin.register(CountVisitIntent.self)
        plugin.register(ReadBookIntent.self)
        plugin.register(DonatingIntent.self)
        if env["NEWSTYLE_BROKEN"] != "unnamed" { EntityPropertyNames.register(IntentPlugin.declaredEntityProperties) }
        plugin.register(entity: TaskEntity.self)
    }
    if env["NEWSTYLE_PRESENTATION"] == "1" {
        plugin.register(PlanSessionIntent.self)
        plugin.register(ContactIntent.self)
    }
    if let rule = env["NEWSTYLE_RULE"] { declareBrokenRule(rule, on: plugin) }
    switch env["NEWSTYLE_BROKEN"] {
    case "1":
        plugin.register(BrokenRangeIntent.self)
        plugin.register(DuplicateOneIntent.self)
        plugin.register(DuplicateTwoIntent.self)
    case "noquery":
        // What a plugin in another language might send: an entity type without a query.
        var section = plugin.metadata.objectValue ?? [:]
        section["entities"] = [["name": "TestItem", "type_display_name": "Item"]]
        runtime.metadata = ["new_style": .object(section)]
    default:
        break
    }
    if env["NEWSTYLE_BROKEN"] == "summary" {
        breakPresentation(plugin)
        runtime.run()  // as for noquery: IntentPlugin.run() would put the valid declarations back
    }
    if env["NEWSTYLE_BROKEN"] == "noquery" {
        // IntentPlugin.run() would put the valid declarations back; run the runtime itself.
        if env["INTENTBUS_DESCRIBE"] == "1" {
            let names = ["DefaultsIntent", "RequiredIntent", "QuestionsIntent", "PickItemIntent", "SecretIntent",
                         "GreetAppIntent", "LegacyGreetIntent"]
            let intents: [JSON] = names.map { ["name": .string($0), "style": "new"] }
            print(JSON.object(["plugin": "newstyletest", "intents": .array(intents), "metadata": runtime.metadata]).canonicalString)
            exit(0)
        }
        runtime.run()
    }
    plugin.run()
} catch {
    print("plugin-newstyletest: \(error)")
    exit(2)
}
