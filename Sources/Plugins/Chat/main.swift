import Foundation
import IntentBus

// The demo's second messenger for the standard INSendMessageIntent, written as a
// new-style (App Intents-style) handler. The legacy `messenger` plugin claims the same
// intent, so the plugin-choice prompt shows both handler generations side by side
// ("messenger, legacy" and "chat, new"; docs/choices.md).
//
// The host asks for a missing recipient or content before perform() runs (with the
// parameters' requestValueDialog); a message longer than a classic 280-character post
// is confirmed mid-perform.

/// Numbers the messages sent since the plugin started, for their ids.
final class ChatOutbox: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = Lock()
    private var count = 0

    /// The id of the next message: `chat-1`, `chat-2`, …
    func nextId() -> String { lock.withLock { count += 1; return "chat-\(count)" } }
}

let outbox = ChatOutbox()

/// "Send a message to Alex" through Chat. Its identifier on the bus is the standard
/// intent's name, so that it competes with the legacy messenger for the same requests.
struct SendChatMessageIntent: AppIntent {
    static let persistentIdentifier = "INSendMessageIntent"
    static let title: LocalizedStringResource = "Send a chat message"
    static let description = IntentDescription("Sends a text message through Chat.", categoryName: "Messaging")

    /// Longer messages are confirmed before they are sent.
    static let confirmationLength = 280

    /// INSendMessageIntent's `recipients`: a list, as Apple defines it.
    @Parameter(title: "Recipients", requestValueDialog: "Who should get the message?") var recipients: [String]?
    /// The old singular parameter, still accepted (deprecated: use `recipients`).
    @Parameter(title: "Recipient (deprecated)") var recipient: String?
    @Parameter(title: "Content", requestValueDialog: "What do you want to say?") var content: String

    func perform() async throws -> some IntentResult & ReturnsValue<String?> & ProvidesDialog {
        // The host only guarantees strings; blank text is asked for again, and
        // perform() starts over with the answer.
        let names = (recipients ?? recipient.map { [$0] } ?? [])
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names.isEmpty {
            throw $recipients.needsValueError("Who should get the message?")
        }
        let recipient = names.joined(separator: ", ")
        if content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw $content.needsValueError("What do you want to say?")
        }
        if content.count > Self.confirmationLength {
            do {
                try await requestConfirmation(dialog:
                    "That message is \(content.count) characters long, more than \(Self.confirmationLength). Send it to \(recipient) anyway?")
            } catch is UserCancelledError {
                return .result(value: String?.none, dialog: "Chat: nothing sent.", snippet: ["sent": false, "recipient": .string(recipient)])
            }
        }
        let id = outbox.nextId()
        return .result(value: Optional(id), dialog: "Chat: sent “\(content)” to \(recipient).",
                       snippet: ["sent": true, "recipient": .string(recipient), "characters": content.count.intentJSON])
    }
}

do {
    let plugin = try IntentPlugin()
    plugin.register(SendChatMessageIntent.self)
    plugin.run()
} catch {
    print("plugin-chat: \(error)")
    exit(2)
}
