import Foundation
import IntentBusZMQ

extension IntentHost {
    /// Binds the Majordomo endpoint (`host.mdp`), when the manifest sets one, like the
    /// frontend: ROUTER_MANDATORY, the frame limit, mode 0600 for ipc, and for tcp a CURVE
    /// server with the host's key whose connections the ZAP handler decides
    /// (`AccessPolicy.majordomoDomain`), unless `insecure: true`.
    func bindMajordomo(context: ZMQContext, hostKeys: CurveKeyPair?,
                       connections: ConnectionGuard) throws(HostStartError) -> ZMQSocket? {
        guard let settings = manifest.host.mdp else { return nil }
        let host = manifest.host
        let curve = settings.endpoint.hasPrefix("tcp://") && !host.insecure
        if settings.endpoint.hasPrefix("tcp://"), host.insecure {
            logger.warning("host.insecure is set: the MDP endpoint \(settings.endpoint) takes plain TCP, without CURVE; anyone who can reach it can call every intent and serve the mdp_worker services")
        }
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        do {
            let socket = try ZMQSocket(context, .router)
            try socket.setHighWaterMarks(send: Int32(host.limits.clientQueue), receive: 100_000)
            try socket.setRouterMandatory()
            try socket.setMaximumMessageSize(host.limits.transportFrameLimit)
            if curve {
                guard let hostKeys else { throw HostStartError(message: "the MDP endpoint needs the host's CURVE keys") }
                try socket.makeCurveServer(secretKey: hostKeys.secretKey, zapDomain: AccessPolicy.majordomoDomain)
            }
            connections.watch(socket, pool: "mdp", endpoint: settings.endpoint)
            try socket.bind(settings.endpoint)
            if settings.endpoint.hasPrefix("ipc://") {
                StateDirectory.restrict([String(settings.endpoint.dropFirst(6))], mode: 0o600)
            }
            logger.info("Majordomo (MDP/0.1) endpoint: \(settings.endpoint)\(curve ? " (CURVE)" : "")")
            return socket
        } catch let error as HostStartError {
            throw error
        } catch {
            throw HostStartError(message: "can't bind the MDP endpoint \(settings.endpoint): \(error)")
        }
    }
}
