import AppIntents

struct FocusFlowShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: StartFocusSessionIntent(),
            phrases: [
                "Starte \(.applicationName)",
                "Beginne eine Fokus-Session mit \(.applicationName)",
                "\(.applicationName) Session starten"
            ],
            shortTitle: "Fokus starten",
            systemImageName: "timer"
        )

        AppShortcut(
            intent: OpenProjectIntent(),
            phrases: [
                "Öffne \(\.$project) in \(.applicationName)",
                "\(.applicationName) Projekt \(\.$project) anzeigen"
            ],
            shortTitle: "Projekt öffnen",
            systemImageName: "folder"
        )
    }
}
