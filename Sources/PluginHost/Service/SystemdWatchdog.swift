import Foundation
import IntentBusCore

/// Sends `WATCHDOG=1` every `notifier.watchdogInterval`, but only while the host still
/// answers `ib.ping` (asked through the internal endpoint): a router thread that hangs
/// stops the pings, and systemd (`WatchdogSec=`) restarts the service.
///
/// Threading: the probe's thread; `stop()` may be called from any thread.
package final class SystemdWatchdog: Sendable {
    private let probe: HostProbe

    /// Starts pinging when the notifier has a watchdog interval; nil otherwise.
    package static func start(_ notifier: SystemdNotifier, endpoint: InternalEndpoint, logger: Logger) -> SystemdWatchdog? {
        guard let interval = notifier.watchdogInterval else { return nil }
        let probe = HostProbe(name: "systemd-watchdog", endpoint: endpoint, intent: "ib.ping", wait: interval,
                              interval: interval, logger: logger) { result, missed in
            switch result {
            case .success:
                if missed { logger.info("systemd watchdog: the host answers again") }
                do { try notifier.send("WATCHDOG=1") } catch { logger.warning("systemd watchdog: \(error)") }
                return true
            case .failure:
                if !missed {
                    logger.error("systemd watchdog: the host did not answer ib.ping within \(interval.humanText); not pinging systemd")
                }
                return false
            }
        }
        return SystemdWatchdog(probe: probe)
    }

    private init(probe: HostProbe) { self.probe = probe }

    /// Stops the pings and waits (at most 0.5 s) for the thread to finish its current one.
    package func stop() { probe.stop() }
}
