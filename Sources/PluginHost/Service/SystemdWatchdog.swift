import Foundation
import IntentBus

/// Sends `WATCHDOG=1` every `notifier.watchdogInterval`, but only while the host still
/// answers `ib.ping` on its frontend: a router thread that hangs stops the pings, and
/// systemd (`WatchdogSec=`) restarts the service.
///
/// Threading: one thread of its own; `stop()` may be called from any thread.
public final class SystemdWatchdog: @unchecked Sendable {
    // @unchecked: `stopped` is only touched while holding `lock`.
    private let notifier: SystemdNotifier
    private let interval: Duration
    private let frontend: String
    private let logger: Logger
    private let lock = Lock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts pinging when the notifier has a watchdog interval; nil otherwise.
    public static func start(_ notifier: SystemdNotifier, frontend: String, logger: Logger) -> SystemdWatchdog? {
        guard let interval = notifier.watchdogInterval else { return nil }
        let watchdog = SystemdWatchdog(notifier: notifier, interval: interval, frontend: frontend, logger: logger)
        let thread = Thread { watchdog.loop() }
        thread.name = "systemd-watchdog"
        thread.start()
        return watchdog
    }

    private init(notifier: SystemdNotifier, interval: Duration, frontend: String, logger: Logger) {
        self.notifier = notifier
        self.interval = interval
        self.frontend = frontend
        self.logger = logger
    }

    /// Stops the pings and waits (at most 0.5 s) for the thread to finish its current one.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        // A request in progress may wait for a router that is shutting down: do not hold
        // the host's exit for it.
        if wasRunning { _ = done.wait(timeout: .now() + 0.5) }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func loop() {
        defer { done.signal() }
        let context = ZMQContext()
        guard let client = try? IntentClient(endpoint: frontend, context: context) else {
            logger.error("systemd watchdog: cannot open a socket to \(frontend); no watchdog pings")
            return
        }
        client.hostSlack = .zero
        var missed = false
        while !isStopped {
            let started = MonotonicClock.now()
            if (try? client.control("ib.ping", wait: interval)) != nil {
                if missed { logger.info("systemd watchdog: the host answers again") }
                missed = false
                do { try notifier.send("WATCHDOG=1") } catch {
                    logger.warning("systemd watchdog: \(error)")
                }
            } else if !missed && !isStopped {
                missed = true
                logger.error("systemd watchdog: the host did not answer ib.ping within \(interval.humanText); not pinging systemd")
            }
            let elapsed = MonotonicClock.now() - started
            let left = Int64(interval.nanoseconds) - Int64(elapsed)
            var remaining = max(0, left)
            // Sleep in short steps so that stop() is quick.
            while remaining > 0 && !isStopped {
                let step = min(remaining, 50_000_000)
                usleep(UInt32(step / 1_000))
                remaining -= step
            }
        }
    }
}
