import Foundation

/// SIGINT, SIGTERM and SIGHUP from the moment the host binds its sockets: a signal that
/// comes before the router can take it (seconds, on a large manifest) waits here, instead
/// of killing the host without a drain and leaving its socket files behind.
///
/// Threading: the signal sources call in on a dispatch queue; `attach` from the router's
/// starting thread. `@unchecked Sendable`: `handler` and `pending` are guarded by `lock`.
package final class PendingSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable (Int32) -> Void)?
    private var pending: [Int32] = []
    private var sources: [any DispatchSourceSignal] = []

    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and every thread it starts
    /// from now on. Call it before the host starts any thread: a signal source's `resume()`
    /// registers with libdispatch asynchronously, and until it has, a signal set to SIG_IGN
    /// and not blocked is discarded (measured: 7 of 30 SIGTERMs sent right after `resume()`
    /// were lost, none once blocked). Blocked, it stays pending until the source reads it.
    /// Children get an empty mask (ChildProcess).
    package static func blockInEveryThread() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Takes over the signals (their default action would kill the process).
    init() {
        Self.blockInEveryThread()
        sources = [SIGINT, SIGTERM, SIGHUP].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in arrived(sig) }
            source.resume()
            return source
        }
    }

    /// From now on signals go to `handler`; those that came before go to it at once, in order.
    func attach(_ handler: @escaping @Sendable (Int32) -> Void) {
        let early = lock.withLock {
            self.handler = handler
            defer { pending.removeAll() }
            return pending
        }
        early.forEach(handler)
    }

    /// Stops listening (the host has stopped).
    func cancel() { sources.forEach { $0.cancel() } }

    private func arrived(_ sig: Int32) {
        let handler = lock.withLock { () -> (@Sendable (Int32) -> Void)? in
            if self.handler == nil { pending.append(sig) }
            return self.handler
        }
        handler?(sig)
    }
}
