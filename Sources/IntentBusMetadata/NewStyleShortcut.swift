import IntentBusCore

/// A declared app shortcut: an entry of metadata `shortcuts` (docs/shortcuts.md). The
/// host checks these with its phrase rules (PluginHost/Shortcuts/ShortcutRules.swift).
public struct NewStyleShortcut: Sendable, Equatable {
    /// The intent's identifier.
    public var intent: String
    /// The phrases, with `${applicationName}` and `${parameter}` slots.
    public var phrases: [String]
    public var shortTitle: String
    public var systemImageName: String?
    /// `requires_context`, `excludes_context` and `lists` as declared (the host's shortcut
    /// rules check them); empty when not given.
    public var requiresContext: [String: JSON]
    public var excludesContext: [String: JSON]
    public var lists: [String: JSON]

    public init(intent: String, phrases: [String], shortTitle: String, systemImageName: String? = nil,
                requiresContext: [String: JSON] = [:], excludesContext: [String: JSON] = [:], lists: [String: JSON] = [:]) {
        self.intent = intent
        self.phrases = phrases
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
        self.requiresContext = requiresContext
        self.excludesContext = excludesContext
        self.lists = lists
    }

    /// The metadata entry.
    public var json: JSON {
        var o: [String: JSON] = ["intent": .string(intent), "phrases": .array(phrases.map { .string($0) }),
                                 "short_title": .string(shortTitle)]
        if let systemImageName { o["system_image_name"] = .string(systemImageName) }
        if !requiresContext.isEmpty { o["requires_context"] = .object(requiresContext) }
        if !excludesContext.isEmpty { o["excludes_context"] = .object(excludesContext) }
        if !lists.isEmpty { o["lists"] = .object(lists) }
        return .object(o)
    }

    /// A typed view of a `shortcuts` entry, without checks: nil when it has no intent
    /// string; phrases that are not strings are left out. What is wrong with an entry is
    /// reported by the host's shortcut rules, which read the JSON.
    public init?(json: JSON) {
        guard let intent = json["intent"]?.stringValue else { return nil }
        self.init(intent: intent, phrases: (json["phrases"]?.arrayValue ?? []).compactMap(\.stringValue),
                  shortTitle: json["short_title"]?.stringValue ?? "",
                  systemImageName: json["system_image_name"]?.stringValue,
                  requiresContext: json["requires_context"]?.objectValue ?? [:],
                  excludesContext: json["excludes_context"]?.objectValue ?? [:], lists: json["lists"]?.objectValue ?? [:])
    }
}
