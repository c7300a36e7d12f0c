import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// Drives a request whose plugin speaks a multi-phase style (legacy resolve → confirm →
/// handle, or new-style perform with host-side parameter checks).
///
/// All calls happen on the router thread. A flow talks to the plugin and the client only
/// through the router's `FlowOperations`, which keep the one-final-answer rule.
protocol ExchangeFlow: AnyObject {
    /// The plugin is ready: send the first message.
    func start(_ exchange: Exchange, body: Frame, _ ops: any FlowOperations)
    /// The plugin sent REPLY, ERROR, PROMPT or PROGRESS for this exchange.
    func pluginMessage(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations)
    /// The client answered a PROMPT that the flow (or the plugin, through it) asked.
    func clientAnswer(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations)
}

/// What a flow may do. Implemented by the router.
protocol FlowOperations: AnyObject {
    /// Sends a message to the exchange's plugin (REQUEST with a phase, ANSWER, …) and
    /// restarts the plugin timeout.
    func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, body: JSON?)
    /// The same with a body frame as it was received (moved on, not parsed or written
    /// again): a request body whose checks changed nothing.
    func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, forwarding body: Frame)
    /// Sends a PROMPT to the client; the plugin timeout pauses until the answer.
    func promptClient(_ exchange: Exchange, prompt: JSON)
    /// Sends a PROGRESS update to the client.
    func progressToClient(_ exchange: Exchange, body: JSON)
    /// Ends the exchange with a REPLY.
    func finish(_ exchange: Exchange, header: JSON, body: JSON)
    /// Ends the exchange with the plugin's REPLY `message` itself, under the client's
    /// request id: its body (and its header, unless the flow replaced it) move on unread,
    /// except when the body may hold a result that leads on (`resultTakesOver`).
    func finish(_ exchange: Exchange, forwarding message: WireMessage)
    /// Ends the exchange with an ERROR.
    func fail(_ exchange: Exchange, _ error: BusError)
    /// The manifest entry of the exchange's plugin.
    func pluginSpec(of exchange: Exchange) -> PluginSpec
    var logger: Logger { get }
}
