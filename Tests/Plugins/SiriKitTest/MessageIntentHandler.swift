import Intents

// Seed 001's handler for the standard INSendMessageIntent, as the seed writes it.
class MessageIntentHandler: NSObject,
    INSendMessageIntentHandling {

    func handle(
        intent: INSendMessageIntent,
        completion: @escaping
            (INSendMessageIntentResponse) -> Void
    ) {
        let response = INSendMessageIntentResponse(
            code: .success, userActivity: nil)
        completion(response)
    }
}

/// What the seed leaves out: the address book. "Alex" fits two contacts (the user picks
/// one), a name that fits none has no account, and the content goes through the seed's
/// own `resolve(for:with:)`.
extension MessageIntentHandler {
    static let contacts = [
        INPerson(personHandle: INPersonHandle(value: "+49 176 1111111", type: .phoneNumber), nameComponents: nil,
                 displayName: "Alex Meyer", image: nil, contactIdentifier: nil, customIdentifier: "alex-meyer"),
        INPerson(personHandle: INPersonHandle(value: "alex@schmidt.example", type: .emailAddress), nameComponents: nil,
                 displayName: "Alex Schmidt", image: nil, contactIdentifier: nil, customIdentifier: "alex-schmidt"),
        INPerson(personHandle: INPersonHandle(value: "+49 160 3333333", type: .phoneNumber), nameComponents: nil,
                 displayName: "Sam Lee", image: nil, contactIdentifier: nil, customIdentifier: "sam-lee"),
    ]

    func resolveRecipients(for intent: INSendMessageIntent,
                           with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void) {
        guard let recipients = intent.recipients, !recipients.isEmpty else { return completion([.needsValue()]) }
        completion(recipients.map { person in
            let query = (person.customIdentifier ?? person.displayName).lowercased()
            let found = Self.contacts.filter { $0.customIdentifier == query || $0.displayName.lowercased().contains(query) }
            switch found.count {
            case 0: return .unsupported(forReason: .noAccount)
            case 1: return .success(with: found[0])
            default: return .disambiguation(with: found)
            }
        })
    }

    func resolveContent(for intent: INSendMessageIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        resolve(for: intent, with: completion)
    }

    // Seed 001's resolve, as the seed writes it.
    func resolve(
        for intent: INSendMessageIntent,
        with completion: @escaping
            (INStringResolutionResult) -> Void
    ) {
        if let text = intent.content, !text.isEmpty {
            completion(.success(with: text))
        } else {
            completion(.needsValue())
        }
    }
}
