import Foundation
import IntentBusCore

/// Options a client can put in a REQUEST header (docs/protocol.md §4.1).
public struct RequestOptions: Sendable {
    /// Overrides the plugin's timeout.
    public var timeout: Duration?
    /// Route to this plugin, bypassing the choice prompt.
    public var plugin: String?
    /// What to do when several plugins claim the intent: `ask`, `fail` or `default`.
    public var choicePolicy: String?
    /// With `plugin`: remember it as the "always" choice.
    public var remember: Bool = false
    /// A stable client identity, for per-client remembered choices.
    public var clientIdentity: String?
    /// The shared client credential for restricted intents.
    public var credential: String?
    /// The user's locale (`de-DE`, `de_DE`, `en`): a legacy intent from an `.intentdefinition`
    /// speaks its dialogs in that language when its `Intents.strings` has it, and new-style
    /// plugins answer in it when they have its strings (LocalizedStringResource, docs/appintents.md).
    public var locale: String?
    /// The request's context (satellite, area, language, …): a flat object of strings,
    /// numbers and booleans. Sentence templates may require or exclude values of it, and
    /// the plugin gets it in its delivery header (docs/protocol.md §4.1).
    public var context: [String: JSON]?
    /// Whether the request may run again on another host when its host is lost while it
    /// is open (docs/protocol.md, "Several hosts"): true resends it there under the same
    /// id, false ends it with `ClientError.hostLost`; nil (the default) follows the
    /// manifest's `idempotent`, as the hosts report it in `ib.plugins`. The client's own
    /// decision: it does not go on the wire.
    public var idempotent: Bool?

    public init() {}

    /// The REQUEST header, or nil when nothing is set (an empty frame goes on the wire).
    public var header: JSON? {
        var h: [String: JSON] = [:]
        if let timeout { h["timeout_ms"] = .int(timeout.wholeMilliseconds) }
        if let plugin { h["plugin"] = .string(plugin) }
        if let choicePolicy { h["choice"] = .string(choicePolicy) }
        if remember { h["remember"] = .bool(true) }
        if let clientIdentity { h["client"] = .string(clientIdentity) }
        if let credential { h["credential"] = .string(credential) }
        if let locale { h["locale"] = .string(locale) }
        if let context { h["context"] = .object(context) }
        return h.isEmpty ? nil : .object(h)
    }
}
