import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Answers a legacy request whose intent has no definition: the plugin can't be
/// driven without one, and saying so beats a silent guess.
final class MissingDefinitionFlow: ExchangeFlow {
    private let pluginId: String
    init(pluginId: String) { self.pluginId = pluginId }

    func start(_ exchange: Exchange, body: Frame, _ ops: any FlowOperations) {
        ops.fail(exchange, BusError(.pluginError,
            "plugin \(pluginId) handles \(exchange.intent) in the legacy style, but \(exchange.intent) has no intent definition: list its definition file under the plugin's 'definitions:' in the manifest (built-in standard intents: \(StandardIntents.names.joined(separator: ", ")))",
            details: ["plugin": .string(pluginId)]))
    }

    func pluginMessage(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {}
    func clientAnswer(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {}
}
