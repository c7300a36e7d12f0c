import Foundation

/// The standard intent that sends a message (SiriKit's `INSendMessageIntent`); the host
/// knows its shape without a definition file (docs/definitions.md, "Standard intents").
/// `conversationIdentifier` and `sender` are the app's own: the host never sends them,
/// an intent the handler makes for a donation may carry them.
open class INSendMessageIntent: INIntent, @unchecked Sendable {
    // @unchecked: an intent is made for one phase and read by its handler only.
    public var recipients: [INPerson]? { parameterValues.objects("recipients", as: INPerson.self) }
    public var outgoingMessageType: INOutgoingMessageType {
        INOutgoingMessageType(intentBusName: parameterValues.string("outgoingMessageType"))
    }
    public var content: String? { parameterValues.string("content") }
    public var speakableGroupName: INSpeakableString? { parameterValues.object("speakableGroupName", as: INSpeakableString.self) }
    public var serviceName: String? { parameterValues.string("serviceName") }
    public private(set) var conversationIdentifier: String?
    public private(set) var sender: INPerson?

    public required init() {}

    /// Apple's initializer (iOS 14's, without attachments).
    public convenience init(recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
                            speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?,
                            sender: INPerson?) {
        self.init()
        parameterValues.set(recipients, "recipients")
        parameterValues.set(outgoingMessageType.intentBusName, "outgoingMessageType")
        parameterValues.set(content, "content")
        parameterValues.set(speakableGroupName, "speakableGroupName")
        parameterValues.set(serviceName, "serviceName")
        self.conversationIdentifier = conversationIdentifier
        self.sender = sender
    }
}
