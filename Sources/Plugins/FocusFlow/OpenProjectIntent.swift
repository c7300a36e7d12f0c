import AppIntents

/// "Öffne Website in FocusFlow": the intent seed 003's shortcuts and snippet name but do
/// not show. The project is resolved by the plugin's query: an id with
/// `entities(for:)`, words with `entities(matching:)`, several matches put to the user.
struct OpenProjectIntent: AppIntent {
    static let title: LocalizedStringResource = "Projekt öffnen"
    static let description = IntentDescription("Öffnet ein Projekt.", categoryName: "Projekte")

    @Parameter(title: "Projekt", requestValueDialog: "Welches Projekt?")
    var project: ProjectEntity

    init() {}

    init(project: ProjectEntity) {
        self.project = project
    }

    func perform() async throws -> some IntentResult & ReturnsValue<ProjectEntity> & ProvidesDialog {
        await MainActor.run { ProjectRouter.shared.open(project) }
        return .result(value: project, dialog: "\(project.name) geöffnet.")
    }
}
