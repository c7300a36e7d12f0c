/// A command-line usage error: printed with a pointer to the command's help, exit 2.
public struct UsageError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
