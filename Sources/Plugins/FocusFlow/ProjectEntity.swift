import AppIntents

struct ProjectEntity: AppEntity {
    let id: UUID
    let name: String
    let dueDate: Date?

    static var typeDisplayRepresentation: TypeDisplayRepresentation {
        TypeDisplayRepresentation(name: "Projekt")
    }

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(
            title: "\(name)",
            // Im Locale der Anfrage (sonst Deutsch, IntentLocale.developmentRegion): "Fällig 15. Dez. 2026".
            subtitle: dueDate.map { "Fällig \($0.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: .intent)))" }
        )
    }

    static var defaultQuery = ProjectQuery()
}

struct ProjectQuery: EntityQuery {
    // Direkte Suche per ID (z. B. wenn Shortcuts einen gespeicherten Wert wiederholt).
    func entities(for identifiers: [UUID]) async throws -> [ProjectEntity] {
        try await ProjectStore.shared.projects(withIDs: identifiers)
    }

    // Suggested-Werte für den Parameter-Picker in Shortcuts.
    func suggestedEntities() async throws -> [ProjectEntity] {
        try await ProjectStore.shared.recentProjects(limit: 8)
    }
}

extension ProjectQuery: EntityStringQuery {
    // Freitext-Suche für Siri: "Öffne Projekt Website-Relaunch"
    func entities(matching string: String) async throws -> [ProjectEntity] {
        try await ProjectStore.shared.search(text: string)
    }
}
