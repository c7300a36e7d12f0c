import AppIntents

// Seed 003's `@AssistantIntent(schema: .system.search)` is a macro, which SwiftPM builds
// only with the swift-syntax package; the conformance it writes is in
// SearchProjectsIntent+Schema.swift instead (docs/appintents.md).
struct SearchProjectsIntent: AppIntent {
    static let title: LocalizedStringResource = "Projekte durchsuchen"

    @Parameter(title: "Suchbegriff")
    var criteria: StringSearchCriteria

    func perform() async throws -> some IntentResult & ShowsSnippetView {
        let results = try await ProjectStore.shared.search(text: criteria.term)
        return .result(view: ProjectSearchSnippet(projects: results))
    }
}
