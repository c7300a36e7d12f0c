import Foundation
import IntentBus

// A second messenger for INSendMessageIntent, so that two plugins claim it and the host
// asks the client which one to use (docs/choices.md). Plain style for now; it is meant
// to become the new-style (App Intents) messenger once that style exists.
do {
    let runtime = try PluginRuntime()
    runtime.on("INSendMessageIntent") { request, _ in
        let recipient = request.parameters["recipient"]?.displayText ?? ""
        let content = request.parameters["content"]?.displayText ?? ""
        guard !recipient.isEmpty else {
            return .failure(["dialog": "Chat needs a recipient.", "code": "failure"])
        }
        guard !content.isEmpty else {
            return .failure(["dialog": .string("What should Chat send to \(recipient)?"), "code": "failure"])
        }
        return .success(["dialog": .string("Chat: sent “\(content)” to \(recipient)"), "code": "success",
                         "chat_id": .string("chat-\(UInt32.random(in: 1000...9999))")])
    }
    runtime.run()
} catch {
    print("plugin-chat: \(error)")
    exit(2)
}
