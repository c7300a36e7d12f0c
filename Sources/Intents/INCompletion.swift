import Foundation
import IntentBusCore

/// Turns a SiriKit completion handler into an awaited value, and a misused one into a
/// clear error instead of a hang: the handler may call `completion` from any thread,
/// once. Called twice before the answer left, the phase fails (`pluginError`); called
/// twice after it, the second call is logged as an error. Never called — the closure is
/// released uncalled (the handler returned, or the handler object went away) or the
/// timeout passes — the phase fails with a message naming the method.
package enum INCompletion {
    /// What a completion closure shares with the awaiting task.
    final class Slot<Value: Sendable>: @unchecked Sendable {
        // @unchecked: every field is only touched under `lock`.
        private let lock = Lock()
        private var continuation: CheckedContinuation<Value, any Error>?
        private var calls = 0
        private var earlyFailure: (any Error)?
        /// Failed: later failures change nothing, a late answer finds nothing to resume.
        private var settled = false
        let method: String
        let logger: Logger

        init(method: String, logger: Logger) {
            self.method = method
            self.logger = logger
        }

        func deliver(_ value: Value) {
            let (pending, count) = lock.withLock { () -> (CheckedContinuation<Value, any Error>?, Int) in
                calls += 1
                defer { continuation = nil }
                return (continuation, calls)
            }
            if let pending { pending.resume(returning: value) }
            if count > 1 { logger.error("\(method) called its completion \(count) times; only the first answer counts") }
        }

        func fail(_ reason: String) { fail(throwing: BusError(.pluginError, "\(method) did not call its completion: \(reason)")) }

        /// Ends the wait with `error` unless an answer came first; before `start`, the
        /// error waits for it (a timer cannot fire earlier, but nothing may hang if it did).
        func fail(throwing error: any Error) {
            let pending = lock.withLock { () -> CheckedContinuation<Value, any Error>? in
                guard calls == 0, !settled else { return nil }
                guard let continuation else {
                    if earlyFailure == nil { earlyFailure = error }
                    return nil
                }
                self.continuation = nil
                settled = true
                return continuation
            }
            pending?.resume(throwing: error)
        }

        func start(_ continuation: CheckedContinuation<Value, any Error>) {
            let early = lock.withLock { () -> (any Error)? in
                guard let earlyFailure else { self.continuation = continuation; return nil }
                return earlyFailure
            }
            if let early { continuation.resume(throwing: early) }
        }
        var callCount: Int { lock.withLock { calls } }
    }

    /// Lives as long as the completion closure: when the closure goes away uncalled, the
    /// handler can no longer answer, so the phase fails now rather than at the timeout.
    final class Watch<Value: Sendable>: @unchecked Sendable {
        // @unchecked: `slot` is thread-safe.
        let slot: Slot<Value>
        init(_ slot: Slot<Value>) { self.slot = slot }
        deinit { slot.fail("the completion was released without being called (the handler returned or went away)") }
    }

    /// Calls `body` with a completion closure and waits for its one value. What `body`
    /// makes (the handler) lives only while it runs, so that a handler object that keeps
    /// the completion and goes away releases it, and the phase fails at once. An error
    /// `body` throws is the phase's.
    package static func value<Value: Sendable>(_ method: String, timeout: Duration, logger: Logger,
                                               _ body: (@escaping (Value) -> Void) throws -> Void) async throws -> Value {
        let slot = Slot<Value>(method: method, logger: logger)
        let timer = Task {
            try await Task.sleep(for: timeout)
            slot.fail("no answer within \(timeout)")
        }
        defer { timer.cancel() }
        let value: Value = try await withCheckedThrowingContinuation { continuation in
            slot.start(continuation)
            let watch = Watch(slot)
            do { try body { value in watch.slot.deliver(value) } } catch { slot.fail(throwing: error) }
        }
        // A second call made while the handler still ran (before the answer left) fails
        // the phase: the handler answered twice, and which one it meant is unknown.
        if slot.callCount > 1 {
            throw BusError(.pluginError, "\(method) called its completion \(slot.callCount) times; it must call it once")
        }
        return value
    }
}
