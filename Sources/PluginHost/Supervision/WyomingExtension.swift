import Foundation
import IntentBusCore
import IntentBusManifest

/// Ties `WyomingService` to the router's life, through the extension interface only
/// (no field of the core is touched): a reload's `host.wyoming` is applied (the section
/// added, changed or removed starts, restarts or stops the service; other `host:` keys
/// still need a restart of the host), and the router's stop stops the service.
final class WyomingExtension: RouterExtension {
    let service: WyomingService
    /// The `host.wyoming` of the manifest a reload read, until the reload is applied
    /// (`reloaded` gets the router's manifest, whose `host:` stays the one it started with).
    private var pending: WyomingServiceSettings??

    init(service: WyomingService) { self.service = service }

    /// Installs the extension and starts the service when the manifest has one. The
    /// frontend is bound by then: the service's first connection finds it.
    static func install(_ manifest: Manifest, into router: RouterCore, logger: Logger) -> WyomingService {
        let service = WyomingService(logger: logger)
        router.install(WyomingExtension(service: service))
        if let settings = manifest.host.wyoming { service.update(settings) }
        return service
    }

    func reloadProblems(_ new: Manifest) -> [String] {
        pending = .some(new.host.wyoming)
        return []
    }

    func reloaded(_ new: Manifest) {
        guard let settings = pending else { return }
        pending = nil
        service.update(settings)
    }

    func stop() { service.stop() }
}
