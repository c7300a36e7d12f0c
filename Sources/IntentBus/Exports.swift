// IntentBus is the one module a plugin or client author imports; it holds the plugin SDK
// (raw, legacy and App Intents layers) and re-exports the modules it is built from
// (docs/design.md, "Modules"):
// - IntentBusCore: JSON, the error codes, message kinds, logging, deadlines — no libzmq;
// - IntentBusZMQ: the ZeroMQ wrapper (sockets, frames, poller, CURVE, mailbox);
// - IntentBusWire: the wire codec (WireMessage, RoutingEnvelope);
// - IntentBusClient: the client (IntentClient and its requests, replies, prompts).
@_exported import IntentBusCore
@_exported import IntentBusZMQ
@_exported import IntentBusWire
@_exported import IntentBusClient
