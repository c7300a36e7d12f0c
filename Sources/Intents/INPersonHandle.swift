import Foundation

/// How a person is reached (SiriKit's `INPersonHandle`): a phone number or an e-mail
/// address. On the wire it is the Person's `handle` and `handleType` properties.
public final class INPersonHandle: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable after init.
    public let value: String?
    public let type: INPersonHandleType

    public init(value: String?, type: INPersonHandleType) {
        self.value = value
        self.type = type
    }

    public var description: String { "INPersonHandle(\(value ?? "nil"), \(type))" }
}

/// What an `INPersonHandle` holds, with Apple's raw values.
public enum INPersonHandleType: Int, CaseIterable, Sendable {
    case unknown = 0
    case emailAddress = 1
    case phoneNumber = 2

    /// The case the host sent by name (the Person's `handleType`); `unknown` for none.
    init(wireName: String?) { self = Self.allCases.first { String(describing: $0) == wireName } ?? .unknown }
}
