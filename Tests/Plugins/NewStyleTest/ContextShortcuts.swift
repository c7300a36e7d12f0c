import Foundation
import IntentBus

/// NEWSTYLE_CONTEXT=1: app shortcuts with context conditions and slot lists, written with
/// the SDK's typed API (ShortcutContextCondition, ShortcutSlotList), for
/// ShortcutContextSDKTests: "Fokus hier mit …" only in a kitchen that is not muted, its
/// mood copied from the context into `label`; minutes from a range, a label from values.
struct ContextShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: DefaultsIntent(), phrases: ["Fokus hier mit \(.applicationName)"], shortTitle: "Küche",
                    systemImageName: "timer", requiresContext: ["area": ["Kitchen", "Küche"], "mood": .slot("label")],
                    excludesContext: ["muted": true])
        AppShortcut(intent: DefaultsIntent(),
                    phrases: ["Fokus für \(\.$minutes) Minuten mit \(.applicationName)", "\(\.$label) fokussieren mit \(.applicationName)"],
                    shortTitle: "Liste", systemImageName: "list",
                    lists: ["minutes": .range(5...180, step: 5), "label": .values(["laut", .said("(ruhig|leise)", as: "quiet")])])
    }
}
