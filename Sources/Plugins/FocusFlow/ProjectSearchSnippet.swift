import AppIntents

/// Seed 003's snippet without SwiftUI: a row per project (at most five), each with a
/// button that opens it, as the seed's `Button(intent: OpenProjectIntent(project:))`.
/// The host checks the rows and shows them; there is no layout to carry.
struct ProjectSearchSnippet: SnippetContent {
    let projects: [ProjectEntity]

    var snippetView: SnippetView {
        SnippetView(title: "Projekte", rows: projects.prefix(5).map { project in
            SnippetView.Row(project.name, subtitle: project.displayRepresentation.subtitle?.resolved(),
                            actions: [SnippetView.Action("Öffnen", intent: OpenProjectIntent(project: project))])
        })
    }
}
