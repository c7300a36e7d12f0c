import Foundation

/// A shortcut the app thinks relevant now (SiriKit's `INRelevantShortcut`, for the Siri
/// watch face and suggestions): `INRelevantShortcutStore.setRelevantShortcuts` makes the
/// host suggest it. The role and the relevance providers are kept and mean nothing here:
/// the host ranks suggestions by use and time of day (docs/shortcuts.md, "Suggestions").
public final class INRelevantShortcut: @unchecked Sendable {
    // @unchecked: built by one caller, then handed to the store.
    public let shortcut: INShortcut
    public var shortcutRole: INRelevantShortcutRole = .action
    public var relevanceProviders: [INRelevanceProvider] = []

    public init(shortcut: INShortcut) { self.shortcut = shortcut }
}

/// What a relevant shortcut is for (Apple's `INRelevantShortcutRole`).
public enum INRelevantShortcutRole: Int, Sendable {
    case action = 0
    case information = 1
}

/// When a shortcut is relevant (Apple's `INRelevanceProvider` and its subclasses): kept,
/// not used (see `INRelevantShortcut`).
open class INRelevanceProvider: @unchecked Sendable {
    public init() {}
}

/// Relevant between two dates (Apple's `INDateRelevanceProvider`).
public final class INDateRelevanceProvider: INRelevanceProvider, @unchecked Sendable {
    public let startDate: Date
    public let endDate: Date?

    public init(start startDate: Date, end endDate: Date?) {
        self.startDate = startDate
        self.endDate = endDate
    }
}
