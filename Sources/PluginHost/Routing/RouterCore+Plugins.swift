import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Messages from plugins: what concerns a request goes to the pipeline, which hands it to
/// its exchange (`RequestPipeline.pluginMessage`: the plain path, or its flow); an answer
/// to the host's own query to its extension; the rest (HELLO, DISCONNECT, …) is the
/// fleet's (`PluginFleet.received`).
extension RouterCore {
    /// A message a plugin sent (its frames, connection identity first).
    func pluginFrames(_ frames: [Frame]) {
        assertConfined()
        guard let (envelope, rest) = RoutingEnvelope.split(frames) else { return }
        let msg: WireMessage
        do { msg = try WireMessage.decode(rest) } catch {
            let who = identities[envelope.identity].map { slots[$0].spec.id } ?? "an unknown peer"
            logger.warning("malformed message from \(who) on the backend: \(error.message)")
            return
        }
        // HELLO, DISCONNECT, HEARTBEAT and the rest are the fleet's; it returns the slot of
        // a REPLY, ERROR, PROMPT or PROGRESS, which concerns a request.
        guard let slot = fleet.received(envelope, msg, user: { frames.count > 1 ? frames[1].property("User-Id") : nil }) else { return }
        if !hostQueries.isEmpty, let id = hostQueries[msg.requestId] { return hostQueryAnswered(id, msg, slot) }
        pipeline.pluginMessage(msg, slot)
    }
}
