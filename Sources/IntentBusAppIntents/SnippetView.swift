import Foundation
import IntentBusCore
import IntentBusPlugin

/// An interactive snippet (iOS 26's snippets, seed 003): a small structured view whose
/// rows offer follow-up intents with their parameters, like the search result with an
/// "open project" button per row. Wire form: the result's `view`,
/// `{"title"?, "rows": [{"title", "subtitle"?, "actions"?: [{"title", "intent",
/// "parameters"?}]}]}`; the host checks its shape and size (docs/results.md): at most
/// 20 rows, 4 actions a row, 200 characters a text.
public struct SnippetView: Sendable, Equatable {
    public var title: String?
    public var rows: [Row]

    public init(title: String? = nil, rows: [Row]) {
        self.title = title
        self.rows = rows
    }

    /// One row: a title, an optional subtitle, and what may be done with it.
    public struct Row: Sendable, Equatable {
        public var title: String
        public var subtitle: String?
        public var actions: [Action]

        public init(_ title: String, subtitle: String? = nil, actions: [Action] = []) {
            self.title = title
            self.subtitle = subtitle
            self.actions = actions
        }

        var json: JSON {
            var o: [String: JSON] = ["title": .string(title)]
            if let subtitle { o["subtitle"] = .string(subtitle) }
            if !actions.isEmpty { o["actions"] = .array(actions.map(\.json)) }
            return .object(o)
        }
    }

    /// A button: runs `intent` with `parameters` when chosen (a new request).
    public struct Action: Sendable, Equatable {
        public var title: String
        public var intent: OpenedIntent

        public init(_ title: String, opens intent: OpenedIntent) {
            self.title = title
            self.intent = intent
        }

        /// A button that runs `intent` with its parameter values (SwiftUI's
        /// `Button(intent:)` in a snippet).
        public init<I: AppIntent>(_ title: String, intent: I) {
            self.init(title, opens: OpenedIntent(intent))
        }

        var json: JSON {
            ["title": .string(title), "intent": .string(intent.intent), "parameters": intent.parameters]
        }
    }

    /// The `view` object.
    public var json: JSON {
        var o: [String: JSON] = ["rows": .array(rows.map(\.json))]
        if let title { o["title"] = .string(title) }
        return .object(o)
    }
}
