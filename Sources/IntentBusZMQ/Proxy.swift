import IntentBusCore
internal import CZeroMQ

/// libzmq's built-in message relay (`zmq_proxy`).
///
/// It exists for the benchmark's baseline: a bare ROUTER/DEALER relay with no logic at
/// all, which is the ceiling the host is measured against (docs/performance.md).
public enum ZMQProxy {
    /// Moves every message from `frontend` to `backend` and back, on the calling thread,
    /// until the sockets' context is shut down.
    ///
    /// Threading: both sockets must belong to the calling thread, which blocks here.
    /// - Throws: `ZMQError`; a context shutdown (`ETERM`) is the normal way out and is
    ///   reported as an error whose `isTerminated` is true.
    public static func run(frontend: ZMQSocket, backend: ZMQSocket) throws(ZMQError) {
        // zmq_proxy only returns on error; EINTR (a signal) restarts it.
        try zmqCheck("zmq_proxy") { zmq_proxy(frontend.handle, backend.handle, nil) }
    }
}
