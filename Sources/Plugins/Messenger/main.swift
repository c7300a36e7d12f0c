import Foundation
import IntentBus

// A messenger plugin for INSendMessageIntent: "send a message to Alex".
do {
    let runtime = try PluginRuntime()
    runtime.on("INSendMessageIntent") { request, _ in
        let recipient = request.parameters["recipient"]?.displayText ?? ""
        let content = request.parameters["content"]?.displayText ?? ""
        guard !recipient.isEmpty else {
            return .failure(["dialog": "Who should the message go to?", "code": "failure"])
        }
        guard !content.isEmpty else {
            return .failure(["dialog": .string("What do you want to say to \(recipient)?"), "code": "failure"])
        }
        let id = "msg-\(UInt32.random(in: 1000...9999))"
        return .success(["dialog": .string("Message sent to \(recipient): “\(content)”"), "code": "success",
                         "message_id": .string(id)])
    }
    runtime.run()
} catch {
    print("plugin-messenger: \(error)")
    exit(2)
}
