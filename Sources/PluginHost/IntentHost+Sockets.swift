import Foundation
import IntentBusZMQ

/// The host's two sockets as bound, with what CURVE needs when an endpoint is tcp.
struct BoundSockets {
    let frontend: ZMQSocket
    let backend: ZMQSocket
    /// The ZAP handler, when any socket speaks CURVE.
    let zap: ZAPHandler?
    /// Whether clients must present a listed key (the frontend is tcp with CURVE).
    let clientKeys: Bool
    /// What spawned plugins need to connect to a CURVE backend: the host's public key
    /// and the key pair the host made for them.
    let pluginCurve: (serverKey: String, keys: CurveKeyPair)?
    /// The Majordomo endpoint (`host.mdp`), when set (Majordomo/).
    var mdp: ZMQSocket?
}

extension IntentHost {
    /// Binds the frontend and backend (docs/security.md): a tcp endpoint is a CURVE server
    /// with the host's key and a ZAP handler deciding who may connect, unless the manifest
    /// says `insecure: true`; an ipc socket is made 0600 by the host itself.
    /// `connections` watches each listening socket from before it binds (ConnectionGuard).
    func bindSockets(context: ZMQContext, connections: ConnectionGuard) throws(HostStartError) -> BoundSockets {
        let host = manifest.host
        let frontendCurve = host.frontend.hasPrefix("tcp://") && !host.insecure
        let backendCurve = host.backend.hasPrefix("tcp://") && !host.insecure
        let mdpCurve = host.mdp?.endpoint.hasPrefix("tcp://") == true && !host.insecure
        for (name, endpoint) in [("frontend", host.frontend), ("backend", host.backend)]
        where endpoint.hasPrefix("tcp://") && host.insecure {
            logger.warning("host.insecure is set: the \(name) \(endpoint) takes plain TCP, without CURVE; anyone who can reach it can \(name == "frontend" ? "call every intent" : "pose as a plugin")")
        }
        var zap: ZAPHandler?
        var pluginCurve: (String, CurveKeyPair)?
        var hostKeys: CurveKeyPair?
        if frontendCurve || backendCurve || mdpCurve {
            let keys = try StateDirectory.hostKeys(in: host.stateDirectory)
            hostKeys = keys
            var localKey: CurveKeyPair?
            if backendCurve {
                do { localKey = try CurveKeyPair.generate() } catch {
                    throw HostStartError(message: "can't make the plugins' key pair: \(error)")
                }
                pluginCurve = (keys.publicKey, localKey!)
            }
            if frontendCurve, host.clients.isEmpty {
                logger.warning("the frontend \(host.frontend) takes CURVE clients, but host.clients lists none: nobody can connect")
            }
            do {
                var remote: [String: String] = [:]
                for spec in manifest.plugins { if let key = spec.remoteKey { remote[key] = spec.id } }
                var policy = AccessPolicy(clients: host.clients, localPluginKey: localKey?.publicKey, remotePlugins: remote)
                for spec in manifest.plugins { if let key = spec.mdpWorkerKey { policy.majordomoWorkers[key] = spec.id } }
                zap = try ZAPHandler(context: context, policy: policy, logger: logger)
            } catch {
                throw HostStartError(message: "can't start the ZAP handler: \(error)")
            }
            logger.info("CURVE: host public key \(keys.publicKey) (\(host.stateDirectory)/host.pub)")
        }
        let frontend: ZMQSocket, backend: ZMQSocket
        // Sockets are made by the host with mode 0600, whatever the umask.
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        do {
            frontend = try ZMQSocket(context, .router)
            backend = try ZMQSocket(context, .router)
            try frontend.setHighWaterMarks(send: Int32(host.limits.clientQueue), receive: 100_000)
            try backend.setHighWaterMarks(send: 100_000, receive: 100_000)
            for s in [frontend, backend] {
                try s.setRouterMandatory()
                // The bound on memory where no answer is possible (docs/reliability.md):
                // a bigger frame drops the peer's connection inside libzmq.
                try s.setMaximumMessageSize(host.limits.transportFrameLimit)
            }
            if frontendCurve, let hostKeys {
                try frontend.makeCurveServer(secretKey: hostKeys.secretKey, zapDomain: AccessPolicy.frontendDomain)
            }
            if backendCurve, let hostKeys {
                try backend.makeCurveServer(secretKey: hostKeys.secretKey, zapDomain: AccessPolicy.backendDomain)
            }
            // The host's own helpers (watchdog, metrics file) ask here: see InternalEndpoint.
            // Bound first, so that the public endpoint stays the socket's last endpoint.
            connections.watch(frontend, pool: "frontend", endpoint: host.frontend)
            connections.watch(backend, pool: "backend", endpoint: host.backend)
            try frontend.bind(InternalEndpoint.name)
            try frontend.bind(host.frontend)
            try backend.bind(host.backend)
        } catch {
            throw HostStartError(message: "can't bind: \(error)")
        }
        let socketPaths = [host.frontend, host.backend].filter { $0.hasPrefix("ipc://") }.map { String($0.dropFirst(6)) }
        StateDirectory.restrict(socketPaths, mode: 0o600)
        if let group = host.socketGroup, host.frontend.hasPrefix("ipc://") {
            try group.share(socketPath: String(host.frontend.dropFirst(6)), stateDirectory: host.stateDirectory)
            logger.info("host.socket_group: members of \(group.name) may connect to \(host.frontend)")
        }
        var bound = BoundSockets(frontend: frontend, backend: backend, zap: zap, clientKeys: frontendCurve,
                                 pluginCurve: pluginCurve.map { (serverKey: $0.0, keys: $0.1) })
        bound.mdp = try bindMajordomo(context: context, hostKeys: hostKeys, connections: connections)
        return bound
    }
}
