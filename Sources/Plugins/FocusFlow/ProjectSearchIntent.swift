import Foundation
import IntentBus

/// Seed 003's `@AssistantIntent(schema: .system.search)`: FocusFlow's search as the
/// predefined `system.search` schema, so that a client can search "whatever app does
/// it" by the schema's name (docs/schemas.md). Its result is an interactive snippet: a
/// row per project, each with an "Open" button (OpenProjectIntent) and a "Focus" button
/// (a 25-minute StartFocusSessionIntent on it), as the seed's ProjectSearchSnippet.
struct ProjectSearchIntent: AssistantSchemaIntent {
    static let title = "Projekte durchsuchen"
    static let description = IntentDescription("Searches projects (system.search).", categoryName: "Projects")
    static let schema = AssistantSchema.system.search

    @Parameter(title: "Suchbegriff", requestValueDialog: "What should I look for?") var criteria: String

    func perform() async throws -> IntentResult {
        let found = try await ProjectStore.shared.search(criteria).map(ProjectEntity.init)
        let rows = found.prefix(5).map { project in
            SnippetView.Row(project.name, subtitle: project.due.map { "due \($0)" }, actions: [
                SnippetView.Action("Open", opens: OpenedIntent(OpenProjectIntent.self, parameters: ["project": .string(project.id)])),
                SnippetView.Action("Focus", opens: OpenedIntent(StartFocusSessionIntent.self,
                                                                parameters: ["project": .string(project.id)])),
            ])
        }
        let dialog = found.isEmpty ? "No project matches \"\(criteria)\"." : "\(found.count) project\(found.count == 1 ? "" : "s") found."
        return .result(dialog: dialog, value: .array(found.map(\.intentJSON)),
                       view: SnippetView(title: "Projects matching “\(criteria)”", rows: Array(rows)))
    }
}
