import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusClient

/// Where the host's own helpers (the systemd watchdog, the metrics file) reach the router:
/// an `inproc://` endpoint the frontend binds beside its public one. inproc connections
/// carry no ZMTP handshake, so they work whatever the public endpoint's security (a CURVE
/// tcp frontend included), and only code inside the host's process can open one. The
/// router knows them by their missing connection metadata (Routing/Authentication+Rights.swift).
package struct InternalEndpoint: Sendable {
    package let context: ZMQContext
    package let endpoint: String

    /// One per host: inproc names are per context, and each host has its own context.
    package static let name = "inproc://intentbus-host-internal"
}

/// A thread that asks the router one control intent every `interval` through the
/// internal endpoint and hands each answer (or the failure) to `step`. The shared loop of
/// `SystemdWatchdog` and `MetricsFileWriter`.
///
/// Threading: one thread of its own; `stop()` may be called from any thread.
final class HostProbe: @unchecked Sendable {
    // @unchecked: `stopped` is only touched while holding `lock`; the rest is immutable.
    private let lock = Lock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread: `step` gets the reply body or the error of each ask, and whether
    /// the round before failed (for logging only the changes); it returns whether this
    /// round succeeded. The next ask comes `interval` after the previous one began.
    init(name: String, endpoint: InternalEndpoint, intent: String, wait: Duration, interval: Duration,
         logger: Logger, step: @escaping @Sendable (_ result: Result<JSON, any Error>, _ failedBefore: Bool) -> Bool) {
        let thread = Thread { [self] in
            defer { done.signal() }
            guard let client = try? IntentClient(endpoint: endpoint.endpoint, context: endpoint.context) else {
                logger.error("\(name): cannot open a socket to the host's \(endpoint.endpoint)")
                return
            }
            client.hostSlack = .zero
            var failedBefore = false
            while !isStopped {
                let started = MonotonicClock.now()
                let result: Result<JSON, any Error>
                do { result = .success(try client.control(intent, wait: wait)) } catch { result = .failure(error) }
                if isStopped { break }
                failedBefore = !step(result, failedBefore)
                sleep(untilStopped: Int64(interval.nanoseconds) - Int64(MonotonicClock.now() - started))
            }
        }
        thread.name = name
        thread.start()
    }

    var isStopped: Bool { lock.withLock { stopped } }

    /// Stops the asks and waits (at most 0.5 s) for the thread to finish its current one.
    func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        // An ask in progress may wait for a router that is shutting down: do not hold
        // the host's exit for it.
        if wasRunning { _ = done.wait(timeout: .now() + 0.5) }
    }

    /// Sleeps in short steps so that stop() is quick.
    private func sleep(untilStopped nanoseconds: Int64) {
        var remaining = max(0, nanoseconds)
        while remaining > 0 && !isStopped {
            let step = min(remaining, 50_000_000)
            usleep(UInt32(step / 1_000))
            remaining -= step
        }
    }
}
