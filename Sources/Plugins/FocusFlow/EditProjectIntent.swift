import AppIntents

struct EditProjectIntent: AppIntent, ForegroundContinuableIntent {
    static let title: LocalizedStringResource = "Projekt bearbeiten"

    @Parameter(title: "Projekt")
    var project: ProjectEntity

    func perform() async throws -> some IntentResult {
        // Auf iOS: läuft im Hintergrund.
        // Auf Mac / iPad: fordert Foreground an und öffnet den Editor.
        try await requestToContinueInForeground()
        await MainActor.run {
            ProjectRouter.shared.openEditor(for: project)
        }
        return .result()
    }
}
