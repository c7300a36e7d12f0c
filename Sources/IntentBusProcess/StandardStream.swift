/// Where one of a child's standard streams (0, 1 or 2) goes.
package enum StandardStream: Sendable, Equatable {
    /// The parent's own descriptor, as it is.
    case inherit
    /// /dev/null.
    case null
    /// A pipe; the parent's end is on the `ChildProcess` (`standardInput` and so on).
    case pipe
    /// A file: read for standard input; for output created if missing (mode 0644) and
    /// appended to or truncated.
    case file(String, append: Bool)
    /// Standard error only: the same descriptor as standard output (`2>&1`).
    case sameAsOutput
}
