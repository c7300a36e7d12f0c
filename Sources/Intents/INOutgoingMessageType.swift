import Foundation

/// Whether a message is text or audio (SiriKit's `INOutgoingMessageType`, Apple's raw
/// values); the host knows the cases by name (docs/definitions.md, `INSendMessageIntent`).
public enum INOutgoingMessageType: Int, CaseIterable, Sendable {
    case unknown = 0
    case outgoingMessageText = 1
    case outgoingMessageAudio = 2

    /// The case the host sent by name; `unknown` for none.
    init(intentBusName: String?) { self = Self.allCases.first { String(describing: $0) == intentBusName } ?? .unknown }
    /// The name the host knows the case by; nil for `unknown`.
    var intentBusName: String? { self == .unknown ? nil : String(describing: self) }
}
