import IntentBusCore
internal import CZeroMQ

/// A libzmq context. libzmq contexts are thread-safe, so this type is `Sendable`;
/// the sockets made from it are not.
public final class ZMQContext: @unchecked Sendable {
    // @unchecked: zmq_ctx_* functions are documented as thread-safe.
    let handle: UnsafeMutableRawPointer

    /// Creates a context with `ioThreads` libzmq I/O threads.
    public init(ioThreads: Int32 = 1) {
        guard let ctx = zmq_ctx_new() else { fatalError("zmq_ctx_new failed: out of memory") }
        handle = ctx
        _ = zmq_ctx_set(ctx, ZMQ_IO_THREADS, ioThreads)
        // The default 1024 sockets is too few for 100 plugins plus clients in a test.
        _ = zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, 8192)
    }

    /// Makes every blocking call on this context's sockets return `ETERM`.
    public func shutdown() { _ = zmq_ctx_shutdown(handle) }

    deinit { _ = zmq_ctx_term(handle) }

    /// libzmq's version as (major, minor, patch).
    public static var version: (Int32, Int32, Int32) {
        var a: Int32 = 0, b: Int32 = 0, c: Int32 = 0
        zmq_version(&a, &b, &c)
        return (a, b, c)
    }
}
