import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// A phrase of an app shortcut, written with interpolations the way App Intents writes
/// them: `"Öffne \(parameter: "project") in \(.applicationName)"`. On the wire it is
/// the text with `${applicationName}` and `${project}` placeholders; a plain string
/// literal with those placeholders works too.
public struct AppShortcutPhrase: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The placeholder for the plugin's name (the manifest `name`, or a synonym).
    public enum Placeholder: Sendable { case applicationName }

    /// The phrase with `${…}` placeholders.
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 24 * interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        /// `\(.applicationName)`.
        public mutating func appendInterpolation(_ placeholder: Placeholder) { text += "${applicationName}" }
        /// `\(parameter: "project")`: a slot for an entity or enum parameter of the intent.
        public mutating func appendInterpolation(parameter name: String) { text += "${\(name)}" }
    }
}

/// Binds an intent to phrases people can say (App Intents' `AppShortcut`). Every phrase
/// must contain `\(.applicationName)` or a parameter slot; a slot names an entity or enum
/// parameter of the intent. The host checks the rules at HELLO (docs/shortcuts.md).
public struct AppShortcut: Sendable {
    /// The intent's identifier on the bus.
    public let intent: String
    public let phrases: [AppShortcutPhrase]
    /// A short title for people ("Fokus starten").
    public let shortTitle: String
    /// A symbol name for clients that show one ("timer").
    public let systemImageName: String?

    public init<I: AppIntent>(intent: I.Type, phrases: [AppShortcutPhrase], shortTitle: String, systemImageName: String? = nil) {
        self.intent = I.identifier
        self.phrases = phrases
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
    }

    /// A shortcut for an intent named by its identifier, for plugins that build their
    /// declarations at run time.
    public init(intentIdentifier: String, phrases: [AppShortcutPhrase], shortTitle: String, systemImageName: String? = nil) {
        intent = intentIdentifier
        self.phrases = phrases
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
    }

    /// The shortcut's declaration in the metadata.
    var declaration: NewStyleShortcut {
        NewStyleShortcut(intent: intent, phrases: phrases.map(\.text), shortTitle: shortTitle, systemImageName: systemImageName)
    }
}

/// A plugin's app shortcuts, at most 10 (App Intents' `AppShortcutsProvider`):
///
/// ```swift
/// struct FocusFlowShortcuts: AppShortcutsProvider {
///     static var appShortcuts: [AppShortcut] {
///         [AppShortcut(intent: StartFocusSessionIntent.self,
///                      phrases: ["Starte \(.applicationName)"], shortTitle: "Fokus starten", systemImageName: "timer")]
///     }
/// }
/// plugin.register(shortcuts: FocusFlowShortcuts.self)
/// ```
public protocol AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] { get }
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
