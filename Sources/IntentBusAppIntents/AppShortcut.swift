import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A phrase of an app shortcut, as App Intents writes it:
/// `"Öffne \(\.$project) in \(.applicationName)"`. On the wire (HELLO's
/// `metadata.new_style.shortcuts`) it is the text with `${applicationName}` and
/// `${project}` placeholders, the form the host's phrase matcher reads.
public struct AppShortcutPhrase<Intent: AppIntent>: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The phrase with `${…}` placeholders.
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 24 * interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        /// `\(.applicationName)`: the plugin's manifest `name`, or a synonym.
        public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) { text += "${applicationName}" }
        /// `\(\.$project)`: a slot for an entity or enum parameter of the intent.
        public mutating func appendInterpolation<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            text += "${\(IntentReflection.parameterName(parameter) ?? "?")}"
        }
    }
}

/// The tokens a phrase may interpolate besides parameters.
public enum AppShortcutPhraseToken: Sendable {
    /// The application's name: the plugin's manifest `name` or a `synonyms` entry.
    case applicationName
}

/// Binds an intent to phrases people can say (App Intents' `AppShortcut`). Every phrase
/// must contain `\(.applicationName)` or a parameter slot, and a provider declares at
/// most 10 shortcuts; the host checks the rules at HELLO and `intentbus validate` before
/// (docs/shortcuts.md "The rules").
public struct AppShortcut: Sendable {
    /// The intent's identifier on the bus.
    public let intent: String
    /// The phrases with `${…}` placeholders.
    public let phrases: [String]
    /// A short title for people ("Fokus starten").
    public let shortTitle: LocalizedStringResource
    /// A symbol name for clients that show one ("timer").
    public let systemImageName: String?
    /// The phrases match only in a request whose context has these (docs/shortcuts.md
    /// "Phrases for one place"), and none of `excludesContext`. Not in App Intents: on
    /// Apple's devices the device is the context.
    public let requiresContext: [String: ShortcutContextCondition]
    public let excludesContext: [String: ShortcutContextCondition]
    /// By parameter name: what its slot takes (docs/shortcuts.md "Lists for a slot").
    public let lists: [String: ShortcutSlotList]

    /// A shortcut for `intent` (an instance, as Apple's takes it; its parameter values
    /// are not used: the phrase's slots give them).
    public init<I: AppIntent>(intent: I, phrases: [AppShortcutPhrase<I>], shortTitle: LocalizedStringResource,
                              systemImageName: String, requiresContext: [String: ShortcutContextCondition] = [:],
                              excludesContext: [String: ShortcutContextCondition] = [:], lists: [String: ShortcutSlotList] = [:]) {
        self.intent = I.persistentIdentifier
        self.phrases = phrases.map(\.text)
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
        self.requiresContext = requiresContext
        self.excludesContext = excludesContext
        self.lists = lists
    }

    /// A shortcut for an intent named by its identifier, with phrases in wire form, for
    /// plugins that build their declarations at run time (the tests' plugin).
    public init(intentIdentifier: String, phrases: [String], shortTitle: String, systemImageName: String? = nil,
                requiresContext: [String: ShortcutContextCondition] = [:], excludesContext: [String: ShortcutContextCondition] = [:],
                lists: [String: ShortcutSlotList] = [:]) {
        intent = intentIdentifier
        self.phrases = phrases
        self.shortTitle = LocalizedStringResource(stringLiteral: shortTitle)
        self.systemImageName = systemImageName
        self.requiresContext = requiresContext
        self.excludesContext = excludesContext
        self.lists = lists
    }

    /// The shortcut's declaration in the metadata.
    var declaration: NewStyleShortcut {
        NewStyleShortcut(intent: intent, phrases: phrases, shortTitle: shortTitle.sourceText, systemImageName: systemImageName,
                         requiresContext: requiresContext.mapValues(\.json), excludesContext: excludesContext.mapValues(\.json),
                         lists: lists.mapValues(\.json))
    }
}

/// Builds `appShortcuts` from a list of `AppShortcut(…)` expressions, with `if` and `for`
/// (App Intents' `AppShortcutsBuilder`).
@resultBuilder
public enum AppShortcutsBuilder {
    public static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
    public static func buildExpression(_ shortcuts: [AppShortcut]) -> [AppShortcut] { shortcuts }
    public static func buildBlock(_ parts: [AppShortcut]...) -> [AppShortcut] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [AppShortcut]?) -> [AppShortcut] { part ?? [] }
    public static func buildEither(first: [AppShortcut]) -> [AppShortcut] { first }
    public static func buildEither(second: [AppShortcut]) -> [AppShortcut] { second }
    public static func buildArray(_ parts: [[AppShortcut]]) -> [AppShortcut] { parts.flatMap { $0 } }
}

/// A plugin's app shortcuts, at most 10 (App Intents' `AppShortcutsProvider`):
///
/// ```swift
/// struct FocusFlowShortcuts: AppShortcutsProvider {
///     static var appShortcuts: [AppShortcut] {
///         AppShortcut(intent: StartFocusSessionIntent(), phrases: ["Starte \(.applicationName)"],
///                     shortTitle: "Fokus starten", systemImageName: "timer")
///     }
/// }
/// ```
public protocol AppShortcutsProvider {
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
}

extension IntentPlugin {
    /// Declares `provider`'s app shortcuts in HELLO (`metadata.new_style.shortcuts`).
    /// Register the intents they name too.
    public func register<P: AppShortcutsProvider>(shortcuts provider: P.Type) {
        register(shortcuts: P.appShortcuts)
    }

    /// Declares `shortcuts` in HELLO, replacing any declared before.
    public func register(shortcuts: [AppShortcut]) {
        appShortcuts = shortcuts.map(\.declaration)
    }
}
