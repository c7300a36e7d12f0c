import IntentBusCore

/// A plugin's new-style declarations: HELLO `metadata.new_style` (docs/protocol.md §9),
/// as typed values. The Swift SDK builds one and sends its `json`; the host decodes one
/// from HELLO with `decode(hello:checks:)`, which reports every problem in it.
///
/// Pure value code, no libzmq.
public struct NewStyleSection: Sendable, Equatable {
    /// The format version (`version`); 1.
    public var version: Int
    public var intents: [NewStyleIntent]
    public var entities: [NewStyleEntity]
    public var enums: [NewStyleEnum]
    /// The app shortcuts; `shortcuts` is written only when there are some. The host
    /// checks them with its phrase rules (ShortcutRules), from the JSON.
    public var shortcuts: [NewStyleShortcut]

    public init(version: Int = 1, intents: [NewStyleIntent] = [], entities: [NewStyleEntity] = [],
                enums: [NewStyleEnum] = [], shortcuts: [NewStyleShortcut] = []) {
        self.version = version
        self.intents = intents
        self.entities = entities
        self.enums = enums
        self.shortcuts = shortcuts
    }

    /// The `new_style` object, with every array in the order held here.
    public var json: JSON {
        var o: [String: JSON] = ["version": .int(Int64(version)), "intents": .array(intents.map(\.json)),
                                 "entities": .array(entities.map(\.json)), "enums": .array(enums.map(\.json))]
        if !shortcuts.isEmpty { o["shortcuts"] = .array(shortcuts.map(\.json)) }
        return .object(o)
    }
}
