// IntentBus is the one module a plugin or client author imports; it re-exports the
// modules it is built from (docs/design.md, "Modules"):
// - IntentBusCore: JSON, the error codes, message kinds, logging, deadlines — no libzmq;
// - IntentBusZMQ: the ZeroMQ wrapper (sockets, frames, poller, CURVE, mailbox).
@_exported import IntentBusCore
@_exported import IntentBusZMQ
