import AppIntents

/// A project as FocusFlow stores it.
struct Project: Codable, Sendable {
    let id: UUID
    var name: String
    var due: Date?

    var entity: ProjectEntity { ProjectEntity(id: id, name: name, dueDate: due) }
}

/// The projects, persisted as JSON in the plugin's data directory so that their ids stay
/// the same across restarts: clients keep entity ids (saved shortcuts), and an id that
/// changes breaks them (seed 003, "AppEntity-Identifier müssen stabil sein").
///
/// The directory is `FOCUSFLOW_DATA` (set it in the manifest's `env`), else
/// `$XDG_STATE_HOME/intentbus-focusflow` or `~/.local/state/intentbus-focusflow`.
actor ProjectStore {
    static let shared = ProjectStore(directory: ProjectStore.defaultDirectory())

    private let file: String
    private var projects: [Project] = []
    private var loaded = false

    init(directory: String) {
        file = (directory as NSString).appendingPathComponent("projects.json")
    }

    static func defaultDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["FOCUSFLOW_DATA"], !dir.isEmpty { return dir }
        let base = env["XDG_STATE_HOME"] ?? ((env["HOME"] ?? NSTemporaryDirectory()) + "/.local/state")
        return base + "/intentbus-focusflow"
    }

    private func load() throws {
        guard !loaded else { return }
        loaded = true
        if let data = FileManager.default.contents(atPath: file) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            projects = try decoder.decode([Project].self, from: data)
            return
        }
        // First run: a few projects, with ids generated once and kept from now on.
        projects = [("Website relaunch", "2026-12-15"), ("Quarterly report", "2026-12-31"),
                    ("Garden shed", nil), ("Website analytics", nil)].map {
            Project(id: UUID(), name: $0.0, due: $0.1.flatMap { IntentDateText.parse($0)?.date })
        }
        try save()
    }

    private func save() throws {
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        // Write then rename, so that a crash never leaves half a file.
        let tmp = file + ".tmp"
        try encoder.encode(projects).write(to: URL(fileURLWithPath: tmp))
        guard rename(tmp, file) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
    }

    func all() throws -> [ProjectEntity] {
        try load()
        return projects.map(\.entity)
    }

    func projects(withIDs ids: [UUID]) throws -> [ProjectEntity] {
        try load()
        return projects.filter { ids.contains($0.id) }.map(\.entity)
    }

    /// The first `limit` projects (FocusFlow keeps no history: they are in the order created).
    func recentProjects(limit: Int) throws -> [ProjectEntity] {
        try load()
        return projects.prefix(max(0, limit)).map(\.entity)
    }

    /// Projects whose name contains `text`, in any case.
    func search(text: String) throws -> [ProjectEntity] {
        try load()
        let needle = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return [] }
        return projects.filter { $0.name.lowercased().contains(needle) }.map(\.entity)
    }

    func create(name: String, due: Date? = nil) throws -> ProjectEntity {
        try load()
        if let existing = projects.first(where: { $0.name.lowercased() == name.lowercased() }) { return existing.entity }
        let project = Project(id: UUID(), name: name, due: due)
        projects.append(project)
        try save()
        return project.entity
    }
}
