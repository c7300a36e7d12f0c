import Foundation
import IntentBusCore

/// The user's voice shortcuts for the app, and the app's suggestions (SiriKit's
/// `INVoiceShortcutCenter`), asked of the host over the bus: its user phrases
/// (`ib.shortcuts.list`) for the intents this extension serves, and its donations
/// (`ib.donate`), which `intentbus suggestions` offers. The completions are called on a
/// thread of their own, as on iOS.
public final class INVoiceShortcutCenter: @unchecked Sendable {
    // @unchecked: `identifiers` is only touched under `lock`.
    public static let shared = INVoiceShortcutCenter()
    private let lock = Lock()
    /// The identifier handed out for each phrase, so that `getVoiceShortcut(with:)` finds it.
    private var identifiers: [String: UUID] = [:]

    private init() {}

    /// Every phrase the user recorded for one of this extension's intents.
    public func getAllVoiceShortcuts(completion completionHandler: @escaping ([INVoiceShortcut]?, (any Error)?) -> Void) {
        INHostConnection.background({ () throws(BusError) in try self.voiceShortcuts() }, completionHandler)
    }

    /// The shortcut `identifier` names (from `getAllVoiceShortcuts`); nil when the user
    /// deleted its phrase.
    public func getVoiceShortcut(with identifier: UUID, completion completionHandler: @escaping (INVoiceShortcut?, (any Error)?) -> Void) {
        INHostConnection.background({ () throws(BusError) -> INVoiceShortcut? in
            try self.voiceShortcuts().first { $0.identifier == identifier }
        }) { found, error in completionHandler(found ?? nil, error) }
    }

    /// Replaces the app's suggested shortcuts: the host offers each in `intentbus
    /// suggestions` (with its intent's `suggestedInvocationPhrase`) until the next call.
    /// Like Apple's, it reports nothing; a failure is logged.
    public func setShortcutSuggestions(_ suggestions: [INShortcut]) {
        nonisolated(unsafe) let suggestions = suggestions
        INHostConnection.background({ () throws(BusError) in
            try INShortcutSuggestions.replace(group: "suggestions", with: suggestions, method: "setShortcutSuggestions")
        }) { _, error in
            if let error { Logger(label: "Intents").error("INVoiceShortcutCenter.setShortcutSuggestions: \(error)") }
        }
    }

    /// The async form of `getAllVoiceShortcuts`.
    public func allVoiceShortcuts() async throws -> [INVoiceShortcut] {
        try await withCheckedThrowingContinuation { continuation in
            getAllVoiceShortcuts { list, error in
                if let list { continuation.resume(returning: list) } else { continuation.resume(throwing: error ?? BusError(.internalError, "no answer")) }
            }
        }
    }

    /// The async form of `getVoiceShortcut(with:)`.
    public func voiceShortcut(with identifier: UUID) async throws -> INVoiceShortcut? {
        try await withCheckedThrowingContinuation { continuation in
            getVoiceShortcut(with: identifier) { found, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: found) }
            }
        }
    }

    /// The host's user phrases that run an intent of this extension (for this plugin, or
    /// for whichever plugin serves it), in the host's order.
    private func voiceShortcuts() throws(BusError) -> [INVoiceShortcut] {
        let host = INHostConnection.shared
        let phrases = try host.call("ib.shortcuts.list", [:])["user"]?.arrayValue ?? []
        return phrases.compactMap { p -> INVoiceShortcut? in
            guard let phrase = p["phrase"]?.stringValue, let name = p["intent"]?.stringValue else { return nil }
            if let plugin = p["plugin"]?.stringValue, plugin != host.pluginId { return nil }
            guard let intent = INRegisteredIntents.shared.intent(name, p["parameters"] ?? .object([:])) else { return nil }
            intent.suggestedInvocationPhrase = phrase
            let identifier = lock.withLock {
                if let known = identifiers[phrase] { return known }
                let made = UUID()
                identifiers[phrase] = made
                return made
            }
            return INVoiceShortcut(identifier: identifier, invocationPhrase: phrase, shortcut: .intent(intent))
        }
    }
}
