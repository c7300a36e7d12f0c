import AppIntents

/// "Create project X": a new project with a new, persisted id (FocusFlow's own intent,
/// beside seed 003's).
struct CreateProjectIntent: AppIntent {
    static let title: LocalizedStringResource = "Projekt anlegen"
    static let description = IntentDescription("Legt ein Projekt an.", categoryName: "Projekte")

    @Parameter(title: "Name", requestValueDialog: "Wie heißt das Projekt?") var name: String
    @Parameter(title: "Fällig", description: "Wann das Projekt fällig ist (ein Tag, 2026-12-15).") var due: Date?

    func perform() async throws -> some IntentResult & ReturnsValue<ProjectEntity> & ProvidesDialog {
        let project = try await ProjectStore.shared.create(name: name, due: due)
        try await IntentDonationManager.shared.donate(intent: OpenProjectIntent(project: project))
        return .result(value: project, dialog: "\(project.name) angelegt.")
    }
}
