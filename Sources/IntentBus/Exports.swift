// IntentBus is the one module a plugin or client author imports; it re-exports the
// modules it is built from (docs/design.md, "Modules"):
// - IntentBusCore: JSON, the error codes, message kinds, logging, deadlines — no libzmq;
// - IntentBusZMQ: the ZeroMQ wrapper (sockets, frames, poller, CURVE, mailbox);
// - IntentBusWire: the wire codec (WireMessage, RoutingEnvelope);
// - IntentBusClient: the client (IntentClient and its requests, replies, prompts);
// - IntentBusMetadata: the new-style metadata model (declarations, their JSON and checks);
// - IntentBusPlugin: the plugin SDK's raw runtime (PluginRuntime, PluginContext, replies);
// - IntentBusLegacy: the legacy layer (resolve/confirm/handle handlers);
// - IntentBusAppIntents: the App Intents layer (AppIntent, @Parameter, entities, shortcuts).
@_exported import IntentBusCore
@_exported import IntentBusZMQ
@_exported import IntentBusWire
@_exported import IntentBusClient
@_exported import IntentBusMetadata
@_exported import IntentBusPlugin
@_exported import IntentBusLegacy
@_exported import IntentBusAppIntents
