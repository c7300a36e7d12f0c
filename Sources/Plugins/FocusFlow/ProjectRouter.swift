import AppIntents

/// Where FocusFlow's "UI" lives: on the main actor, as an app's router does. The intents
/// hop here with `await MainActor.run { … }` (seed 003's EditProjectIntent); the plugin's
/// main thread runs the main actor, so the hop returns.
@MainActor
final class ProjectRouter {
    static let shared = ProjectRouter()

    /// The project shown last, and whether its editor is open.
    private(set) var shown: (project: UUID, editing: Bool)?

    func open(_ project: ProjectEntity) {
        precondition(Thread.isMainThread, "the main actor runs on the main thread")
        shown = (project.id, false)
    }

    func openEditor(for project: ProjectEntity) {
        precondition(Thread.isMainThread, "the main actor runs on the main thread")
        shown = (project.id, true)
    }
}
