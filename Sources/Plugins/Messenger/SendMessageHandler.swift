import Intents

/// INSendMessageIntent: recipients from the address book, one result per recipient;
/// MESSENGER_OFFLINE=1 answers failureMessageServiceNotAvailable.
final class SendMessageHandler: INSendMessageIntentHandling {
    /// The address book.
    static let contacts = [
        person("alex-meyer", "Alex Meyer", INPersonHandle(value: "+49 176 1111111", type: .phoneNumber)),
        person("alex-schmidt", "Alex Schmidt", INPersonHandle(value: "alex@schmidt.example", type: .emailAddress)),
        person("alexandra-braun", "Alexandra Braun", INPersonHandle(value: "+49 151 2222222", type: .phoneNumber)),
        person("sam-lee", "Sam Lee", INPersonHandle(value: "+49 160 3333333", type: .phoneNumber)),
    ]

    private static func person(_ id: String, _ name: String, _ handle: INPersonHandle) -> INPerson {
        INPerson(personHandle: handle, nameComponents: nil, displayName: name, image: nil, contactIdentifier: nil, customIdentifier: id)
    }

    func resolveRecipients(for intent: INSendMessageIntent,
                           with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void) {
        guard let recipients = intent.recipients, !recipients.isEmpty else { return completion([.needsValue()]) }
        completion(recipients.map { person in
            let query = (person.customIdentifier ?? person.displayName).lowercased()
            let found = Self.contacts.filter { $0.customIdentifier == query || $0.displayName.lowercased().contains(query) }
            switch found.count {
            case 0: return .unsupported()
            case 1: return .success(with: found[0])
            default: return .disambiguation(with: found)
            }
        })
    }

    func resolveContent(for intent: INSendMessageIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        guard let text = intent.content, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return completion(.needsValue()) }
        completion(.success(with: text))
    }

    func handle(intent: INSendMessageIntent) async -> INSendMessageIntentResponse {
        let names = (intent.recipients ?? []).map(\.displayName)
        guard !names.isEmpty, let text = intent.content else { return INSendMessageIntentResponse(code: .failure, userActivity: nil) }
        if ProcessInfo.processInfo.environment["MESSENGER_OFFLINE"] == "1" {
            return INSendMessageIntentResponse(code: .failureMessageServiceNotAvailable, userActivity: nil)
        }
        let name = names.joined(separator: ", ")
        INIntentProgress.report("Connecting…", fraction: 0.3)
        try? await Task.sleep(for: .milliseconds(200))
        INIntentProgress.report("Sending \(text.count) characters to \(name)…", fraction: 0.7)
        try? await Task.sleep(for: .milliseconds(200))
        let response = INSendMessageIntentResponse(code: .success, userActivity: nil)
        response.recipientName = name
        response.messageIdentifier = "msg-\(Outbox.shared.add())"
        return response
    }
}
