import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A new-style intent (App Intents' `AppIntent`): a type with a title, a description,
/// `@Parameter`s and `perform()`. Seed 003's code compiles as written:
///
/// ```swift
/// struct StartFocusSessionIntent: AppIntent {
///     static let title: LocalizedStringResource = "Fokus-Session starten"
///     static let description = IntentDescription("Startet eine Fokus-Session.", categoryName: "Produktivität")
///     @Parameter(title: "Dauer", default: 25, controlStyle: .field, inclusiveRange: (5, 180)) var minutes: Int
///     func perform() async throws -> some IntentResult & ProvidesDialog {
///         .result(dialog: IntentDialog("Fokus-Session für \(minutes) Minuten gestartet."))
///     }
/// }
/// ```
///
/// The runtime creates a fresh instance per request (and per restart after a
/// needs-value error), binds the parameters, then calls `perform()` in the request's task
/// (not on the main actor: hop there with `await MainActor.run { … }`, which works
/// because the plugin's main thread runs the main actor).
public protocol AppIntent: Sendable {
    init()
    /// The intent's name for people, a key of the plugin's string tables.
    static var title: LocalizedStringResource { get }
    /// What it does, and its category.
    static var description: IntentDescription { get }
    /// Whether the intent needs the app in front: here, the client. The reply header
    /// says `open_app_when_run: true` and the client should show the result itself, as a
    /// legacy `continueInApp` hands over (docs/appintents.md).
    static var openAppWhenRun: Bool { get }
    /// Whether the intent is offered to people: false goes in HELLO as
    /// `discoverable: false` (docs/appintents.md says what the host does with it); the
    /// intent still runs when called by name (another intent's `opensIntent`, a snippet
    /// button, a client that knows it).
    static var isDiscoverable: Bool { get }
    /// The sentence that sums up the intent with its values (`Summary`, `When`).
    associatedtype SummaryContent: ParameterSummary = NoParameterSummary
    /// The intent's parameter summary; none unless declared.
    static var parameterSummary: SummaryContent { get }
    /// Who may run it; `alwaysAllowed` unless overridden.
    static var authenticationPolicy: IntentAuthenticationPolicy { get }
    /// The intent name on the bus (the manifest's IntentsSupported entry); the Swift type
    /// name unless overridden (App Intents' `persistentIdentifier`).
    static var persistentIdentifier: String { get }
    /// What `perform()` returns.
    associatedtype PerformResult: IntentResult
    /// Does the work. Runs after every required parameter has a value.
    func perform() async throws -> PerformResult
}

/// A new-style intent that replaces a SiriKit one (App Intents'
/// `CustomIntentMigratedAppIntent`). Requests for the legacy name run this intent; the
/// host maps their parameters by name and type and reports the ones that don't map in
/// the REPLY header (`unmapped_parameters`, docs/protocol.md §9.5).
public protocol CustomIntentMigratedAppIntent: AppIntent {
    /// The legacy intent's class name, which is its name on the bus: `ShowCartIntent`.
    static var intentClassName: String { get }
}

/// An intent that may ask to continue "in the app" (App Intents'
/// `ForegroundContinuableIntent`). Here the app is the client:
/// `requestToContinueInForeground()` sends a `confirmation` PROMPT ("Continue in the
/// app?") and goes on when the client says yes; a no ends the request with
/// `UserCancelledError` (docs/appintents.md).
public protocol ForegroundContinuableIntent: AppIntent {}

extension ForegroundContinuableIntent {
    /// Asks the client to take over, then goes on (`dialog` is the question).
    public func requestToContinueInForeground(_ dialog: IntentDialog? = nil) async throws {
        let context = try IntentQuestions.currentContext()
        let answer = try await context.prompt(["kind": PromptKind.confirmation.json, "reason": "continue_in_foreground",
                                               "dialog": .string(dialog?.text ?? "Continue in the app?")])
        guard answer.boolValue == true else { throw UserCancelledError() }
        IntentRequestState.current?.continuedInForeground()
    }
}

/// Thrown when the user declines a confirmation (`requestConfirmation`,
/// `requestToContinueInForeground`): the request ends with `ERROR cancelled`.
public struct UserCancelledError: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "the user cancelled" }
}

extension AppIntent {
    public static var description: IntentDescription { IntentDescription("") }
    public static var persistentIdentifier: String { String(describing: Self.self) }
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }
    public static var openAppWhenRun: Bool { false }
    public static var isDiscoverable: Bool { true }

    /// Asks the user to confirm the whole intent (PROMPT kind `confirmation` without a
    /// parameter); a no throws `UserCancelledError`, as Apple's does.
    public func requestConfirmation(actionName: ConfirmationActionName = .go, dialog: IntentDialog? = nil) async throws {
        let context = try IntentQuestions.currentContext()
        let text = dialog?.text ?? "\(actionName.label) \(Self.title.resolved())?"
        let answer = try await context.prompt(["kind": PromptKind.confirmation.json, "dialog": .string(text)])
        guard answer.boolValue == true else { throw UserCancelledError() }
    }

    /// Asks the user to confirm a result before it is returned (Apple's
    /// `requestConfirmation(result:confirmationActionName:showPrompt:)`): the result's
    /// dialog is the question.
    public func requestConfirmation<R: IntentResult & ProvidesDialog>(result: R, confirmationActionName: ConfirmationActionName = .go,
                                                                       showPrompt: Bool = true) async throws {
        let dialog = result._intentBusParts?.parts.dialog
        try await requestConfirmation(actionName: confirmationActionName, dialog: dialog)
    }

    /// Sends a PROGRESS update to the client.
    public func progress(_ message: String, fraction: Double? = nil) {
        IntentQuestions.context?.progress(message, fraction: fraction)
    }
}

/// The verb of a confirmation (App Intents' `ConfirmationActionName`).
public struct ConfirmationActionName: Sendable, Hashable {
    let label: String
    public static let go = ConfirmationActionName(label: "Go")
    public static let add = ConfirmationActionName(label: "Add")
    public static let buy = ConfirmationActionName(label: "Buy")
    public static let order = ConfirmationActionName(label: "Order")
    public static let send = ConfirmationActionName(label: "Send")
    public static let `set` = ConfirmationActionName(label: "Set")
    public static let start = ConfirmationActionName(label: "Start")
    public static let run = ConfirmationActionName(label: "Run")
    public static func custom(acceptLabel: LocalizedStringResource, acceptAlternatives: [LocalizedStringResource] = [],
                              denyLabel: LocalizedStringResource, denyAlternatives: [LocalizedStringResource] = [],
                              destructive: Bool = false) -> ConfirmationActionName {
        ConfirmationActionName(label: acceptLabel.resolved())
    }
}

/// An intent's description: text, a category name and search keywords (App Intents'
/// `IntentDescription`). Keywords go in the metadata for clients that search.
public struct IntentDescription: Sendable, ExpressibleByStringInterpolation {
    public let text: LocalizedStringResource
    public let categoryName: LocalizedStringResource?
    public let searchKeywords: [LocalizedStringResource]

    public init(_ text: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
                searchKeywords: [LocalizedStringResource] = []) {
        self.text = text
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
    }

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(stringLiteral: value)) }
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
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
