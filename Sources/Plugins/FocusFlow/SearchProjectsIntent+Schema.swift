import AppIntents

/// What seed 003's `@AssistantIntent(schema: .system.search)` declares: clients may
/// call the search by the schema's name, `system.search` (docs/schemas.md).
extension SearchProjectsIntent: AssistantSchemaIntent {
    static let schema = AssistantSchema.system.search
}
