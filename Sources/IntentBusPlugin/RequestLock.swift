import Foundation

/// A mutex in a single allocation, for the objects a request makes (`PluginContext`, the
/// App Intents layer's `@Parameter`s and request state). `Lock` wraps an `NSLock`, which
/// on Linux is three allocations and a `pthread_mutex_init` per object; a `perform()`
/// made four of them (docs/performance.md, "The SDK's async handlers in the receiving
/// turn"). The `pthread_mutex_t` lives in the object's tail storage (`ManagedBuffer`),
/// whose address is stable for the object's lifetime, as a mutex needs.
///
/// Threading: `withLock` from any thread.
package final class RequestLock: ManagedBuffer<Void, pthread_mutex_t>, @unchecked Sendable {
    // @unchecked: the mutex is only used through pthread calls, which are thread-safe.

    /// A new unlocked mutex.
    package static func make() -> RequestLock {
        let lock = unsafeDowncast(RequestLock.create(minimumCapacity: 1) { _ in () }, to: RequestLock.self)
        lock.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
        return lock
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        // The tail storage's address is stable while `self` lives, which it does here.
        let mutex = withUnsafeMutablePointerToElements { $0 }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
