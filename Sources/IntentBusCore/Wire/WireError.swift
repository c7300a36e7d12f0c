import Foundation

/// A message that can't be decoded. Sent back as an ERROR when the sender is known.
public struct WireError: Error, Sendable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public static func badFrame(_ message: String) -> WireError { WireError(.badFrame, message) }

    public var description: String { "\(code.rawValue): \(message)" }
    public var busError: BusError { BusError(code, message) }
}
