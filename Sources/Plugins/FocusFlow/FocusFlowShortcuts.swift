import Foundation
import IntentBus

/// FocusFlow's app shortcuts, after seed 003: German phrases as the seed writes them,
/// and English ones beside them. Each names the app or a parameter slot.
struct FocusFlowShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        [
            AppShortcut(intent: StartFocusSessionIntent.self,
                        phrases: ["Starte \(.applicationName)",
                                  "Beginne eine Fokus-Session mit \(.applicationName)",
                                  "\(.applicationName) Session starten",
                                  "Start a focus session with \(.applicationName)"],
                        shortTitle: "Fokus starten", systemImageName: "timer"),
            AppShortcut(intent: OpenProjectIntent.self,
                        phrases: ["Öffne \(parameter: "project") in \(.applicationName)",
                                  "\(.applicationName) Projekt \(parameter: "project") anzeigen",
                                  "Open \(parameter: "project") in \(.applicationName)"],
                        shortTitle: "Projekt öffnen", systemImageName: "folder"),
        ]
    }
}
