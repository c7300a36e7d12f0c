import Foundation
import IntentBusCore
import IntentBusPlugin

extension OpenedIntent {
    /// Opens the new-style intent `type` with `parameters`.
    public init<I: AppIntent>(_ type: I.Type, parameters: JSON = .object([:])) {
        self.init(I.identifier, parameters: parameters)
    }
}

extension IntentResult {
    /// A result that opens another intent next: `.result(dialog: "Found it.", opensIntent:
    /// OpenedIntent(OpenProjectIntent.self, parameters: ["project": "p1"]))`.
    public static func result(dialog: String? = nil, value: JSON? = nil, opensIntent: OpenedIntent) -> IntentResult {
        var result = IntentResult(dialog: dialog, value: value)
        result.opensIntent = opensIntent
        return result
    }

    /// A result shown as an interactive snippet (App Intents' `ShowsSnippetView`): the
    /// client lists the rows and offers their actions.
    public static func result(dialog: String? = nil, value: JSON? = nil, view: SnippetView) -> IntentResult {
        var result = IntentResult(dialog: dialog, value: value)
        result.view = view
        return result
    }
}

/// A new-style intent that implements a predefined assistant schema (App Intents'
/// `@AssistantIntent(schema: .system.search)`). Clients may call the schema by name;
/// the host checks the intent's parameters against it at HELLO (docs/schemas.md).
public protocol AssistantSchemaIntent: AppIntent {
    static var schema: AssistantSchema { get }
}

/// A predefined intent signature: `.system.search` (parameter `criteria`, a string) or
/// `.messages.sendMessage` (`recipients`, `content`, optional `speakableGroupName` and
/// `serviceName`, as INSendMessageIntent).
public struct AssistantSchema: Sendable, Equatable {
    /// The schema's name on the bus, e.g. `system.search`.
    public let name: String

    public init(name: String) { self.name = name }

    /// The `system` domain.
    public static let system = System()
    /// The `messages` domain.
    public static let messages = Messages()

    public struct System: Sendable {
        /// Search the app's content: `criteria` (String).
        public var search: AssistantSchema { AssistantSchema(name: "system.search") }
    }

    public struct Messages: Sendable {
        /// Send a message: `recipients`, `content`.
        public var sendMessage: AssistantSchema { AssistantSchema(name: "messages.sendMessage") }
    }
}
