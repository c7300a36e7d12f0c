/// A command-line usage error: printed with a pointer to the command's help, exit 2.
package struct UsageError: Error, Sendable, CustomStringConvertible, Equatable {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
