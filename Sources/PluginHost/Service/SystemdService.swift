import Foundation
import IntentBusCore

/// The host's side of systemd's `Type=notify` (contrib/intentbus.service): `READY=1` once
/// it serves, watchdog pings while it answers, `STOPPING=1` when a shutdown begins. Does
/// nothing when the host was not started by systemd (no `NOTIFY_SOCKET`).
///
/// Thread-safe: `stopping()` runs on a signal handler's queue, the rest on the host's thread.
package final class SystemdService: Sendable {
    private let notifier: SystemdNotifier?
    private let endpoint: InternalEndpoint
    private let logger: Logger
    private let watchdog = WatchdogBox()

    package init(endpoint: InternalEndpoint, logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.notifier = SystemdNotifier.fromEnvironment(environment, logger: logger)
        self.endpoint = endpoint
        self.logger = logger
    }

    /// The host serves: `READY=1`, then the watchdog pings start (when systemd asks for them).
    package func ready(status: String) {
        guard let notifier else { return }
        notify { () throws(SystemdNotifyError) in try notifier.ready(status: status) }
        watchdog.set(SystemdWatchdog.start(notifier, endpoint: endpoint, logger: logger))
        logger.debug("systemd: READY=1 sent to \(notifier.socketPath)\(notifier.watchdogInterval.map { "; watchdog ping every \($0.humanText)" } ?? "")")
    }

    /// A graceful shutdown has begun.
    package func stopping() {
        notify { () throws(SystemdNotifyError) in try notifier?.stopping() }
    }

    /// The router has stopped: no more watchdog pings.
    package func stopped() {
        watchdog.take()?.stop()
    }

    private func notify(_ send: () throws(SystemdNotifyError) -> Void) {
        do { try send() } catch { logger.warning("systemd: \(error)") }
    }
}

/// Holds the watchdog between `ready` and `stopped`.
private final class WatchdogBox: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = Lock()
    private var value: SystemdWatchdog?
    func set(_ w: SystemdWatchdog?) { lock.withLock { value = w } }
    func take() -> SystemdWatchdog? { lock.withLock { defer { value = nil }; return value } }
}
