import AppIntents

/// Seed 003's snippet without SwiftUI: a row per project (at most five), each with a
/// button that opens it, as the seed's `Button(intent: OpenProjectIntent(project:))`.
/// The host checks the rows and shows them; there is no layout to carry. Texts are
/// resolved here, in the request's locale.
struct ProjectSearchSnippet: SnippetContent {
    let projects: [ProjectEntity]

    var snippetView: SnippetView {
        let open = LocalizedStringResource("Öffnen").resolved()
        return SnippetView(title: LocalizedStringResource("Projekte").resolved(), rows: projects.prefix(5).map { project in
            SnippetView.Row(project.name, subtitle: project.displayRepresentation.subtitle?.resolved(),
                            actions: [SnippetView.Action(open, intent: OpenProjectIntent(project: project))])
        })
    }
}
