import Foundation
import IntentBus

/// A FocusFlow project as an app entity.
struct ProjectEntity: AppEntity {
    static let typeDisplayName = "Project"
    static let defaultQuery = ProjectQuery()

    let id: String
    let name: String
    let due: String?

    init(_ project: Project) {
        id = project.id
        name = project.name
        due = project.due
    }

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: name, subtitle: due.map { "due \($0)" })
    }
}

/// Finds projects by id, by name, and lists them (there are few).
struct ProjectQuery: EntityStringQuery, EnumerableEntityQuery {
    func entities(for identifiers: [String]) async throws -> [ProjectEntity] {
        try await ProjectStore.shared.projects(withIds: identifiers).map(ProjectEntity.init)
    }

    func suggestedEntities() async throws -> [ProjectEntity] {
        try await ProjectStore.shared.all().prefix(3).map(ProjectEntity.init)
    }

    func entities(matching string: String) async throws -> [ProjectEntity] {
        try await ProjectStore.shared.search(string).map(ProjectEntity.init)
    }

    func allEntities() async throws -> [ProjectEntity] {
        try await ProjectStore.shared.all().map(ProjectEntity.init)
    }
}

/// "Start a focus session": seed 003's StartFocusSessionIntent.
struct StartFocusSessionIntent: AppIntent {
    static let title = "Start focus session"
    static let description = IntentDescription("Starts a focus session of the given length.", categoryName: "Productivity")

    @Parameter(title: "Minutes", description: "Length of the session in minutes.", default: 25, inRange: 5...180)
    var minutes: Int
    @Parameter(title: "Project", description: "The project to focus on.") var project: ProjectEntity?

    func perform() async throws -> IntentResult {
        if minutes > 120 {
            let ok = try await $minutes.requestConfirmation(for: minutes, "That's a long session: \(minutes) minutes. Start it?")
            guard ok else { return .result(dialog: "No session started.") }
        }
        let on = project.map { " on \($0.name)" } ?? ""
        return .result(dialog: "Focus session started for \(minutes) minutes\(on).",
                       snippet: ["minutes": minutes.intentJSON, "project": project.intentJSON])
    }
}

/// "Open project X".
struct OpenProjectIntent: AppIntent {
    static let title = "Open project"
    static let description = IntentDescription("Opens a project.", categoryName: "Projects")

    @Parameter(title: "Project", requestValueDialog: "Which project?") var project: ProjectEntity

    func perform() async throws -> IntentResult {
        .result(value: project, dialog: "Opened \(project.name).")
    }
}

/// "Search projects": returns several projects.
struct SearchProjectsIntent: AppIntent {
    static let title = "Search projects"
    static let description = IntentDescription("Finds projects by name.", categoryName: "Projects")

    @Parameter(title: "Search term", requestValueDialog: "What should I look for?") var term: String

    func perform() async throws -> IntentResult {
        let found = try await ProjectStore.shared.search(term).map(ProjectEntity.init)
        let dialog = found.isEmpty ? "No project matches \"\(term)\"."
            : "Found \(found.count) project\(found.count == 1 ? "" : "s"): \(found.map(\.name).joined(separator: ", "))."
        return .result(values: found, dialog: dialog,
                       snippet: ["projects": .array(found.map { ["id": .string($0.id), "title": .string($0.name)] })])
    }
}

/// "Create project X": a new project with a new, persisted id.
struct CreateProjectIntent: AppIntent {
    static let title = "Create project"
    static let description = IntentDescription("Adds a project.", categoryName: "Projects")

    @Parameter(title: "Name", requestValueDialog: "What is the project called?") var name: String
    @Parameter(title: "Due", description: "When the project is due (a day, 2026-12-15).") var due: Date?

    func perform() async throws -> IntentResult {
        // Stored as the day, like the seeded projects' due dates ("due 2026-12-15").
        let day = due.map { String(IntentDateText.format($0).prefix(10)) }
        let project = ProjectEntity(try await ProjectStore.shared.create(name: name, due: day))
        return .result(value: project, dialog: "Created \(project.name).")
    }
}
