import Foundation
import IntentBus

/// A project as FocusFlow stores it.
struct Project: Codable, Sendable {
    let id: String
    var name: String
    var due: String?
}

/// The projects, persisted as JSON in the plugin's data directory so that their ids stay
/// the same across restarts: clients keep entity ids (saved shortcuts), and an id that
/// changes breaks them.
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
            projects = try JSONDecoder().decode([Project].self, from: data)
            return
        }
        // First run: a few projects, with ids generated once and kept from now on.
        projects = [("Website relaunch", "2026-12-15"), ("Quarterly report", "2026-12-31"),
                    ("Garden shed", nil), ("Website analytics", nil)].map {
            Project(id: UUID().uuidString.lowercased(), name: $0.0, due: $0.1)
        }
        try save()
    }

    private func save() throws {
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Write then rename, so that a crash never leaves half a file.
        let tmp = file + ".tmp"
        try encoder.encode(projects).write(to: URL(fileURLWithPath: tmp))
        guard rename(tmp, file) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
    }

    func all() throws -> [Project] {
        try load()
        return projects
    }

    func projects(withIds ids: [String]) throws -> [Project] {
        try load()
        return projects.filter { ids.contains($0.id) }
    }

    func search(_ text: String) throws -> [Project] {
        try load()
        let needle = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return [] }
        return projects.filter { $0.name.lowercased().contains(needle) }
    }

    func create(name: String, due: String? = nil) throws -> Project {
        try load()
        if let existing = projects.first(where: { $0.name.lowercased() == name.lowercased() }) { return existing }
        let project = Project(id: UUID().uuidString.lowercased(), name: name, due: due)
        projects.append(project)
        try save()
        return project
    }
}
