import Foundation
import IntentBusCore

/// Where the app puts its relevant shortcuts (SiriKit's `INRelevantShortcutStore`): the
/// host's donations, in a group of the plugin's own that each call replaces, which
/// `intentbus suggestions` offers.
public final class INRelevantShortcutStore: Sendable {
    public static let `default` = INRelevantShortcutStore()

    private init() {}

    /// Replaces the app's relevant shortcuts; `completionHandler` gets nil or the host's
    /// error, on a thread of its own.
    public func setRelevantShortcuts(_ shortcuts: [INRelevantShortcut], completionHandler: (((any Error)?) -> Void)? = nil) {
        nonisolated(unsafe) let shortcuts = shortcuts.map(\.shortcut)
        INHostConnection.background({ () throws(BusError) in
            try INShortcutSuggestions.replace(group: "relevant", with: shortcuts, method: "setRelevantShortcuts")
        }) { _, error in completionHandler?(error) }
    }

    /// The async form.
    public func setRelevantShortcuts(_ shortcuts: [INRelevantShortcut]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            setRelevantShortcuts(shortcuts) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
