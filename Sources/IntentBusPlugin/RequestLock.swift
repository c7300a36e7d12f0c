import Foundation
import Synchronization

/// A mutex stored inline in the object it guards, for the objects a request makes
/// (`PluginContext`, the App Intents layer's `@Parameter`s and request state, the
/// runtime's table of live requests). `Lock` wraps an `NSLock`, which on Linux is three
/// allocations and a `pthread_mutex_init` per object; a `pthread_mutex_t` in a
/// `ManagedBuffer` was still one allocation, an init and a destroy per object and a
/// `pthread_mutex_lock` call per use. The standard library's `Mutex` is a word in the
/// owner's own storage: no allocation, and an uncontended lock is one atomic
/// compare-and-swap (a futex only when threads contend).
///
/// Noncopyable, as the mutex must stay where it is: keep it as a `let` of a class.
///
/// Threading: `withLock` from any thread.
package struct RequestLock: ~Copyable, @unchecked Sendable {
    // @unchecked: `Mutex<Void>` guards nothing of its own; the owner's fields it guards
    // are only touched inside `withLock`.
    private let mutex = Mutex<Void>(())

    /// A new unlocked mutex.
    package init() {}

    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try mutex.withLock { _ throws -> R in try body() }
    }
}
