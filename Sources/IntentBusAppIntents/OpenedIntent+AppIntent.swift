import Foundation
import IntentBusCore
import IntentBusPlugin

extension OpenedIntent {
    /// Opens `intent` with the parameter values it holds (entities by id), as
    /// `.result(opensIntent: OpenProjectIntent(project: project))` does.
    public init<I: AppIntent>(_ intent: I) {
        self.init(I.persistentIdentifier, parameters: IntentReflection.currentValues(of: intent))
    }

    /// Opens the new-style intent `type` with `parameters` in wire form.
    public init<I: AppIntent>(_ type: I.Type, parameters: JSON = .object([:])) {
        self.init(I.persistentIdentifier, parameters: parameters)
    }
}

/// A new-style intent that implements a predefined assistant schema (App Intents'
/// `@AssistantIntent(schema: .system.search)`, a macro: SwiftPM builds macros only with
/// the swift-syntax package, which this project does not take, so the conformance is
/// written out: `extension SearchProjectsIntent: AssistantSchemaIntent { static let
/// schema = AssistantSchema.system.search }`). Clients may call the schema by name; the
/// host checks the intent's parameters against it at HELLO (docs/schemas.md).
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
