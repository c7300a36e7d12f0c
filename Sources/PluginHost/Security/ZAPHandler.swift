import Foundation
import IntentBusCore
import IntentBusZMQ

/// The host's ZAP handler (ZeroMQ RFC 27): a REP socket at `inproc://zeromq.zap.01` in
/// the host's context, which libzmq asks about every CURVE connection before it is
/// accepted. It must be bound before the sockets it guards; `RouterShell` polls it on the
/// router thread, and `AccessPolicy` decides.
final class ZAPHandler {
    static let endpoint = "inproc://zeromq.zap.01"
    let socket: ZMQSocket
    private let policy: AccessPolicy
    private let logger: Logger

    init(context: ZMQContext, policy: AccessPolicy, logger: Logger) throws(ZMQError) {
        socket = try ZMQSocket(context, .rep)
        try socket.bind(Self.endpoint)
        self.policy = policy
        self.logger = logger
    }

    /// Answers every waiting ZAP request.
    func answerWaiting() {
        while true {
            let frames: [Frame]
            do {
                guard let received = try socket.receive(dontWait: true, maxFrames: 16) else { return }
                frames = received
            } catch {
                logger.error("ZAP: receive failed: \(error)")
                return
            }
            reply(to: frames)
        }
    }

    /// Request: version, request id, domain, address, identity, mechanism, credentials…
    /// Reply: version, request id, status code, status text, user id, metadata.
    private func reply(to frames: [Frame]) {
        guard frames.count >= 6 else {
            _ = try? socket.send([Frame("1.0"), Frame(""), Frame("500"), Frame("malformed ZAP request"), Frame(""), Frame()])
            return
        }
        let requestId = frames[1].data
        let domain = frames[2].validUTF8 ?? ""
        let address = frames[3].validUTF8 ?? "?"
        let mechanism = frames[5].validUTF8 ?? ""
        let key = frames.count > 6 ? CurveKeyPair.z85(binary: frames[6].data) : nil
        let out: [Frame]
        switch policy.decide(domain: domain, mechanism: mechanism, publicKey: key) {
        case .success(let user):
            logger.debug("ZAP: \(address) authenticated as \(user)")
            out = [Frame("1.0"), Frame(data: requestId), Frame("200"), Frame("OK"), Frame(user), Frame()]
        case .failure(let denied):
            logger.warning("refused a connection from \(address): \(denied)")
            out = [Frame("1.0"), Frame(data: requestId), Frame("400"), Frame(denied.description), Frame(""), Frame()]
        }
        do { try socket.send(out) } catch { logger.error("ZAP: reply failed: \(error)") }
    }
}
