import Foundation
import IntentBusCore
import IntentBusClient

/// The extension's own connection to its host as a client, for what SiriKit asks the
/// system for outside a request: the user's voice shortcuts (`ib.shortcuts.list`) and
/// the app's suggestions (`ib.donate`, `ib.donations.delete`). The host gives every
/// plugin its frontend endpoint (`INTENTBUS_FRONTEND`); a host whose frontend needs
/// CURVE keys or credentials answers these calls with its refusal, a clear error.
final class INHostConnection: @unchecked Sendable {
    // @unchecked: `client` is only touched under `lock`, which also keeps one call at a time.
    static let shared = INHostConnection(environment: ProcessInfo.processInfo.environment)
    private let lock = Lock()
    private var client: IntentClient?
    private let endpoint: String?
    /// This plugin's id, which the host's shortcuts and donations are kept under.
    let pluginId: String?

    init(environment: [String: String]) {
        endpoint = environment["INTENTBUS_FRONTEND"].flatMap { $0.isEmpty ? nil : $0 }
        pluginId = environment["INTENTBUS_PLUGIN_ID"]
    }

    /// Sends the host intent `intent` and returns its reply body.
    func call(_ intent: String, _ body: JSON) throws(BusError) -> JSON {
        guard let endpoint else {
            throw BusError(.internalError, "\(intent): this process was not started by an IntentBus host (no INTENTBUS_FRONTEND)")
        }
        do {
            return try lock.withLock { () throws -> JSON in
                if client == nil { client = try IntentClient(endpoints: [endpoint]) }
                return try client!.control(intent, body, wait: .seconds(5))
            }
        } catch let error as ClientError {
            if case .bus(let bus) = error { throw bus }
            throw BusError(.internalError, "\(intent) at \(endpoint): \(error)")
        } catch {
            throw BusError(.internalError, "\(intent) at \(endpoint): \(error)")
        }
    }

    /// Runs `work` on a thread of its own and hands its result to `completion`: the host
    /// may be busy with this very plugin's request, which must not wait for it.
    static func background<T>(_ work: @escaping @Sendable () throws(BusError) -> T,
                              _ completion: @escaping (T?, (any Error)?) -> Void) {
        nonisolated(unsafe) let completion = completion
        Thread.detachNewThread {
            do throws(BusError) { completion(try work(), nil) } catch { completion(nil, error) }
        }
    }
}
