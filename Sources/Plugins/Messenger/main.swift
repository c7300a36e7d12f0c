import Foundation
import IntentBus

// A messenger plugin for the standard INSendMessageIntent, a legacy (SiriKit-style)
// handler: each recipient is resolved on its own, as resolveRecipients does, so
// "send a message to Alex and Sam" finds three Alexes and the host asks which one for
// that recipient only; an empty message needs a value; sending reports progress. Its custom
// MessageStatusIntent comes from definitions/messenger.yaml.

/// One address-book entry.
struct Contact: Sendable {
    let id: String
    let name: String
    let handle: String

    /// An INPerson: display name, handle and the handle's type.
    var json: JSON {
        ["identifier": .string(id), "displayString": .string(name), "displayName": .string(name),
         "handle": .string(handle), "handleType": .string(handle.contains("@") ? "emailAddress" : "phoneNumber")]
    }
}

let contacts = [
    Contact(id: "alex-meyer", name: "Alex Meyer", handle: "+49 176 1111111"),
    Contact(id: "alex-schmidt", name: "Alex Schmidt", handle: "alex@schmidt.example"),
    Contact(id: "alexandra-braun", name: "Alexandra Braun", handle: "+49 151 2222222"),
    Contact(id: "sam-lee", name: "Sam Lee", handle: "+49 160 3333333"),
]

/// Messages sent since the plugin started; the count answers MessageStatusIntent.
final class Outbox: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = Lock()
    private var count = 0
    func add() -> Int { lock.withLock { count += 1; return count } }
    var sent: Int { lock.withLock { count } }
}
let outbox = Outbox()

struct SendMessageHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success, failure, failureMessageServiceNotAvailable }

    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        switch parameter {
        case "recipients":
            // One result per recipient, in order (SiriKit's resolveRecipients).
            let queries = intent.identifiers("recipients")
            guard !queries.isEmpty else { return .items([.needsValue]) }
            return .items(queries.map(Self.resolveRecipient))
        case "content":
            guard let text = intent.string("content"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .needsValue
            }
            return .success(.string(text))
        default:
            return .notRequired
        }
    }

    static func resolveRecipient(_ given: String) -> ResolutionResult {
        let query = given.lowercased()
        let found = contacts.filter { $0.id == query || $0.name.lowercased().contains(query) }
        switch found.count {
        case 0: return .unsupported()
        case 1: return .success(found[0].json)
        default: return .disambiguation(found.map { ResolutionOption(id: $0.id, title: $0.name, subtitle: $0.handle) })
        }
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        let names = intent.strings("recipients")
        guard !names.isEmpty, let text = intent.string("content") else { return LegacyResponse(.failure) }
        let name = names.joined(separator: ", ")
        if ProcessInfo.processInfo.environment["MESSENGER_OFFLINE"] == "1" {
            return LegacyResponse(.failureMessageServiceNotAvailable)
        }
        context.progress("Connecting…", fraction: 0.3)
        try await Task.sleep(for: .milliseconds(200))
        context.progress("Sending \(text.count) characters to \(name)…", fraction: 0.7)
        try await Task.sleep(for: .milliseconds(200))
        let number = outbox.add()
        return LegacyResponse(.success, ["recipientName": .string(name), "messageIdentifier": .string("msg-\(number)")])
    }
}

struct MessageStatusHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        LegacyResponse(.success, ["count": .int(Int64(outbox.sent))])
    }
}

do {
    let runtime = try PluginRuntime()
    runtime.onLegacy(["INSendMessageIntent", "MessageStatusIntent"]) { intent in
        switch intent {
        case "INSendMessageIntent": SendMessageHandler()
        case "MessageStatusIntent": MessageStatusHandler()
        default: nil
        }
    }
    runtime.run()
} catch {
    print("plugin-messenger: \(error)")
    exit(2)
}
