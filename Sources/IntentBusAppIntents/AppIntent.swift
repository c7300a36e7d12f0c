import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A new-style intent (App Intents' `AppIntent`): a type with a title, a description,
/// `@Parameter`s and `perform()`.
///
/// ```swift
/// struct StartFocusSessionIntent: AppIntent {
///     static let title = "Start focus session"
///     static let description = IntentDescription("Starts a focus session.", categoryName: "Productivity")
///     @Parameter(title: "Minutes", default: 25, inRange: 5...180) var minutes: Int
///     func perform() async throws -> IntentResult {
///         .result(dialog: "Focus session started for \(minutes) minutes.")
///     }
/// }
/// ```
///
/// The runtime creates a fresh instance per request (and per restart after a
/// needs-value error), binds the parameters, then calls `perform()` in the request's task.
public protocol AppIntent: SendableMetatype {
    init()
    /// The intent's name for people.
    static var title: String { get }
    /// What it does, and its category.
    static var description: IntentDescription { get }
    /// The intent name on the bus (the manifest's IntentsSupported entry); the Swift type
    /// name unless overridden.
    static var identifier: String { get }
    /// Who may run it; `alwaysAllowed` unless overridden.
    static var authenticationPolicy: IntentAuthenticationPolicy { get }
    /// Does the work. Runs after every required parameter has a value.
    func perform() async throws -> IntentResult
}

/// A new-style intent that replaces a legacy one (App Intents'
/// `CustomIntentMigratedAppIntent.intentClassName`). Requests for the legacy name run
/// this intent; the host maps their parameters by name and type and reports the ones
/// that don't map in the REPLY header (`unmapped_parameters`).
public protocol MigratedAppIntent: AppIntent {
    /// The legacy intent's name on the bus, e.g. `ShowCartIntent`.
    static var migratedFrom: String { get }
}

extension AppIntent {
    public static var description: IntentDescription { IntentDescription("") }
    public static var identifier: String { String(describing: Self.self) }
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }

    /// Asks the user to confirm the whole intent (PROMPT kind `confirmation` without a
    /// parameter). Returns the answer.
    public func requestConfirmation(_ dialog: String) async throws -> Bool {
        let context = try IntentQuestions.currentContext()
        let answer = try await context.prompt(["kind": "confirmation", "dialog": .string(dialog)])
        return answer.boolValue ?? false
    }

    /// Sends a PROGRESS update to the client.
    public func progress(_ message: String, fraction: Double? = nil) {
        IntentQuestions.context?.progress(message, fraction: fraction)
    }
}

/// An intent's description: text and a category name.
public struct IntentDescription: Sendable, ExpressibleByStringLiteral {
    public let text: String
    public let categoryName: String?

    public init(_ text: String, categoryName: String? = nil) {
        self.text = text
        self.categoryName = categoryName
    }

    public init(stringLiteral value: String) { self.init(value) }
}

/// What `perform()` returns: a dialog for people, a returned value, structured snippet
/// data. Any part may be absent.
public struct IntentResult: Sendable {
    public var dialog: String?
    public var value: JSON?
    public var snippet: JSON?
    /// Donated when the request succeeds (REPLY header `donation`; IntentDonation.swift).
    public var donation: IntentDonation?
    /// Donations of this plugin to delete (REPLY header `delete_donations`).
    public var deletedDonations: DonationDeletion?
    /// The intent the host runs next in the same conversation (App Intents' `OpensIntent`;
    /// OpenedIntent.swift).
    public var opensIntent: OpenedIntent?
    /// An interactive snippet: rows that offer follow-up intents (SnippetView.swift).
    public var view: SnippetView?

    public init(dialog: String? = nil, value: JSON? = nil, snippet: JSON? = nil) {
        self.dialog = dialog
        self.value = value
        self.snippet = snippet
    }

    /// A result with a dialog and/or snippet data.
    public static func result(dialog: String? = nil, snippet: JSON? = nil) -> IntentResult {
        IntentResult(dialog: dialog, snippet: snippet)
    }

    /// A result returning a value (an entity, an enum case, a number …).
    public static func result<V: IntentValue>(value: V, dialog: String? = nil, snippet: JSON? = nil) -> IntentResult {
        IntentResult(dialog: dialog, value: value.intentJSON, snippet: snippet)
    }

    /// A result returning several values (search results).
    public static func result<V: IntentValue>(values: [V], dialog: String? = nil, snippet: JSON? = nil) -> IntentResult {
        IntentResult(dialog: dialog, value: .array(values.map(\.intentJSON)), snippet: snippet)
    }

    /// The REPLY body: `{"dialog", "value", "snippet", "opens_intent", "view"}` (absent
    /// parts left out).
    public var json: JSON {
        var o: [String: JSON] = [:]
        if let dialog { o["dialog"] = .string(dialog) }
        if let value { o["value"] = value }
        if let snippet { o["snippet"] = snippet }
        if let opensIntent { o["opens_intent"] = opensIntent.json }
        if let view { o["view"] = view.json }
        return .object(o)
    }
}

/// Thrown from `perform()` (via `$param.needsValueError(…)`) when a parameter's value
/// won't do. The runtime asks the user for the parameter and runs `perform()` again from
/// the start with the answer; the host only relays the question.
public struct NeedsValueError: Error, Sendable {
    /// The parameter to ask for.
    public let parameter: String
    /// The PROMPT body to send.
    let prompt: JSON
}
