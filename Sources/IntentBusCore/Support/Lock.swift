import Foundation

/// A small mutex, for the few places where state is shared across threads.
public final class Lock: @unchecked Sendable {
    // @unchecked: NSLock is thread-safe.
    private let lock = NSLock()
    public init() {}

    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
