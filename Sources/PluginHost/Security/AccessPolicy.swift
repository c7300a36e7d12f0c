import Foundation
import IntentBusManifest

/// Who may connect, decided at connection time by the host's ZAP handler (ZeroMQ RFC 27)
/// from the peer's CURVE public key (docs/security.md). Pure value code: the shell's
/// `ZAPHandler` asks it; tests ask it directly.
struct AccessPolicy: Sendable {
    /// The ZAP domains the host gives its sockets.
    static let frontendDomain = "intentbus-frontend"
    static let backendDomain = "intentbus-backend"
    /// The Majordomo endpoint's: clients by their `host.clients` key, workers by their
    /// `mdp_worker` entry's key (docs/mdp.md).
    static let majordomoDomain = "intentbus-mdp"
    /// The User-Id of plugins the host spawned (they get the host-made plugin key).
    static let localPluginUser = "plugin:*local"

    /// Client public key (Z85) → client name.
    let clients: [String: String]
    /// The key the host gives the plugins it spawns.
    let localPluginKey: String?
    /// Remote plugins' public keys (Z85) → plugin id.
    let remotePlugins: [String: String]
    /// `mdp_worker` entries' public keys (Z85) → entry id.
    var majordomoWorkers: [String: String] = [:]

    init(clients: [ClientGrant], localPluginKey: String?, remotePlugins: [String: String] = [:]) {
        var byKey: [String: String] = [:]
        for grant in clients { byKey[grant.publicKey] = grant.name }
        self.clients = byKey
        self.localPluginKey = localPluginKey
        self.remotePlugins = remotePlugins
    }

    /// The decision for one connection: the User-Id on success, the reason otherwise.
    func decide(domain: String, mechanism: String, publicKey: String?) -> Result<String, AccessDenied> {
        guard mechanism == "CURVE", let publicKey else {
            return .failure(AccessDenied("only CURVE connections are accepted here (got \(mechanism))"))
        }
        switch domain {
        case Self.frontendDomain:
            guard let name = clients[publicKey] else {
                return .failure(AccessDenied("client key \(publicKey) is not listed in host.clients"))
            }
            return .success("client:\(name)")
        case Self.backendDomain:
            if publicKey == localPluginKey { return .success(Self.localPluginUser) }
            if let id = remotePlugins[publicKey] { return .success("plugin:\(id)") }
            return .failure(AccessDenied("plugin key \(publicKey) is not known to this host"))
        case Self.majordomoDomain:
            if let id = majordomoWorkers[publicKey] { return .success("mdp-worker:\(id)") }
            if let name = clients[publicKey] { return .success("client:\(name)") }
            return .failure(AccessDenied("key \(publicKey) is neither a client in host.clients nor an mdp_worker entry's"))
        default:
            return .failure(AccessDenied("unknown ZAP domain \"\(domain)\""))
        }
    }
}

struct AccessDenied: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
