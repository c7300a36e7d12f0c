import Foundation
import IntentBus

/// The plugin's id from the host's environment, so that two instances answer apart.
let pluginId = ProcessInfo.processInfo.environment["INTENTBUS_PLUGIN_ID"] ?? "flowtest"

/// The items the search and open intents know.
let items = [("garden", "Garden shed"), ("website", "Website relaunch"), ("web-shop", "Web shop")]

/// Implements `system.search`: a view with one row per match, each offering "Open".
struct SearchItemsIntent: AssistantSchemaIntent {
    static let title: LocalizedStringResource = "Search items"
    static let schema = AssistantSchema.system.search
    @Parameter(title: "Criteria") var criteria: String

    func perform() async throws -> some IntentResult {
        let found = items.filter { $0.1.lowercased().contains(criteria.lowercased()) }
        let rows = found.map { id, name in
            SnippetView.Row(name, subtitle: id, actions: [
                SnippetView.Action("Open", opens: OpenedIntent(OpenItemIntent.self, parameters: ["item": .string(id)])),
            ])
        }
        return .result(dialog: "\(pluginId) found \(found.count) for \(criteria).",
                       view: SnippetView(title: "Items matching “\(criteria)”", rows: rows))
    }
}

/// Implements messages.sendMessage (INSendMessageIntent's parameters).
struct SendNoteIntent: AssistantSchemaIntent {
    static let title: LocalizedStringResource = "Send a note"
    static let schema = AssistantSchema.messages.sendMessage
    @Parameter(title: "Recipients") var recipients: [String]
    @Parameter(title: "Content") var content: String
    @Parameter(title: "Service") var serviceName: String?
    func perform() async throws -> some IntentResult {
        .result(dialog: "\(pluginId) sent “\(content)” to \(recipients.joined(separator: ", "))\(serviceName.map { " via \($0)" } ?? "").")
    }
}

struct OpenItemIntent: AppIntent {
    static let title: LocalizedStringResource = "Open item"
    @Parameter(title: "Item") var item: String
    init() {}
    init(item: String) { self.item = item }
    func perform() async throws -> some IntentResult { .result(dialog: "Opened \(item) (\(pluginId)).") }
}

/// Opens OpenItemIntent for the item it finds (App Intents' OpensIntent).
struct FindAndOpenIntent: AppIntent {
    static let title: LocalizedStringResource = "Find and open"
    @Parameter(title: "Name") var name: String
    func perform() async throws -> some IntentResult {
        .result(value: name, opensIntent: OpenItemIntent(item: name), dialog: "Found \(name).")
    }
}

/// Opens an intent that asks a question first: the opened intent's prompt reaches the
/// client in the same conversation.
struct FindThenAskIntent: AppIntent {
    static let title: LocalizedStringResource = "Find, then ask"
    func perform() async throws -> some IntentResult {
        .result(opensIntent: OpenItemIntent(), dialog: "Which one now?")
    }
}

/// Two intents that open each other: the host ends the chain.
struct PingIntent: AppIntent {
    static let title: LocalizedStringResource = "Ping"
    func perform() async throws -> some IntentResult { .result(opensIntent: PongIntent(), dialog: "ping") }
}

struct PongIntent: AppIntent {
    static let title: LocalizedStringResource = "Pong"
    func perform() async throws -> some IntentResult { .result(opensIntent: PingIntent(), dialog: "pong") }
}

/// Opens LockedIntent: the opened request runs with the client's own rights.
struct OpenLockedIntent: AppIntent {
    static let title: LocalizedStringResource = "Open the locked one"
    func perform() async throws -> some IntentResult { .result(opensIntent: LockedIntent(), dialog: "to the vault") }
}

/// Opens an intent nobody claims: the request ends with unknown_intent.
struct OpenNowhereIntent: AppIntent {
    static let title: LocalizedStringResource = "Open nowhere"
    func perform() async throws -> some IntentResult { .result(opensIntent: NoSuchIntent(), dialog: "off we go") }
}

/// An intent this plugin does not register: nobody claims it.
struct NoSuchIntent: AppIntent {
    static let title: LocalizedStringResource = "No such intent"
    func perform() async throws -> some IntentResult { .result() }
}

/// A view the host must refuse: too many rows, and an action naming a host intent.
struct BadViewIntent: AppIntent {
    static let title: LocalizedStringResource = "Bad view"
    @Parameter(title: "Kind", default: "rows") var kind: String
    func perform() async throws -> some IntentResult {
        if kind == "host" {
            let row = SnippetView.Row("x", actions: [SnippetView.Action("Status", opens: OpenedIntent("ib.status"))])
            return .result(view: SnippetView(rows: [row]))
        }
        return .result(view: SnippetView(rows: (1...21).map { SnippetView.Row("row \($0)") }))
    }
}

struct LockedIntent: AppIntent {
    static let title: LocalizedStringResource = "Locked"
    static let authenticationPolicy = IntentAuthenticationPolicy.requiresAuthentication
    func perform() async throws -> some IntentResult { .result(dialog: "unlocked") }
}

struct LocalOnlyIntent: AppIntent {
    static let title: LocalizedStringResource = "Local only"
    static let authenticationPolicy = IntentAuthenticationPolicy.requiresLocalDeviceAuthentication
    func perform() async throws -> some IntentResult { .result(dialog: "local and unlocked") }
}

/// Declares system.search with the wrong parameter (FLOW_BAD_SCHEMA=1): HELLO is refused.
struct BadSearchIntent: AssistantSchemaIntent {
    static let title: LocalizedStringResource = "Bad search"
    static let schema = AssistantSchema.system.search
    @Parameter(title: "Criteria") var criteria: Int
    @Parameter(title: "Scope") var scope: String
    func perform() async throws -> some IntentResult { .result(dialog: "never") }
}

/// A legacy handler whose `continueInApp` hands over to OpenItemIntent.
struct HandOverHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case continueInApp, success }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        let item = intent.string("item") ?? "garden"
        return LegacyResponse(.continueInApp, ["item": .string(item)],
                              opensIntent: OpenedIntent("OpenItemIntent", parameters: ["item": .string(item)]))
    }
}
