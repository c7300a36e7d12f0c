import IntentBusCore
import IntentBusMetadata
import IntentBusManifest

/// A new-style intent's authentication policy (App Intents' `IntentAuthenticationPolicy`,
/// metadata `authentication`), enforced with the machinery of SiriKit's
/// `IntentsRestrictedWhileLocked` (docs/security.md "Authentication policies"):
///
/// | policy | ipc frontend (or tcp `insecure`) | tcp frontend with CURVE clients |
/// |---|---|---|
/// | `always_allowed` | anyone | any listed client its `intents` allow |
/// | `requires_authentication` | the shared `host.client_credential` | a client whose grant has `restricted: true` |
/// | `requires_local_device_authentication` | ipc only, with the credential | refused: no client is on this machine |
///
/// Pure value code; the flow calls `problem` on the router thread before any parameter
/// is checked, so a refused request never reaches the plugin.
///
/// The policy itself is the metadata model's `IntentAuthenticationPolicy`, which the SDK
/// declares and the host decodes; the host adds its enforcement.
typealias AuthenticationPolicy = IntentAuthenticationPolicy

extension IntentAuthenticationPolicy {
    /// What the host knows about the client side when a request arrives.
    struct Access {
        /// The host's settings: the shared credential, the client grants, the frontend.
        let host: HostSettings
        /// Clients connect with CURVE keys (a tcp frontend): their grants decide.
        let clientKeysRequired: Bool

        /// Whether a client on the frontend is on this machine: an ipc (or inproc)
        /// socket, which only this user's processes can open (docs/security.md).
        var frontendIsLocal: Bool { host.frontend.hasPrefix("ipc://") || host.frontend.hasPrefix("inproc://") }
    }

    /// Why a request with header `options` may not run `intent`, or nil.
    func problem(intent: String, options: JSON, access: Access) -> BusError? {
        switch self {
        case .alwaysAllowed:
            return nil
        case .requiresLocalDeviceAuthentication where !access.frontendIsLocal:
            return BusError(.authenticationRequired,
                "\(intent) requires authentication on the local device (requires_local_device_authentication); this host's clients connect over \(access.host.frontend), not this machine's ipc socket",
                details: ["policy": .string(rawValue)])
        case .requiresAuthentication, .requiresLocalDeviceAuthentication:
            switch Authentication(host: access.host, clientKeysRequired: access.clientKeysRequired).check(options) {
            case .authenticated:
                return nil
            case .noRight(let name):
                return BusError(.forbidden,
                    "\(intent) requires authentication (\(rawValue)) and client \(name ?? "?") has no right to it (restricted: true in host.clients)",
                    details: ["policy": .string(rawValue), "client": .string(name ?? "")])
            case .credential(let why):
                return BusError(.authenticationRequired, "\(intent) requires authentication (\(rawValue)): \(why)",
                                details: ["policy": .string(rawValue)])
            }
        }
    }
}
