internal import CZeroMQ

/// The load process's libzmq context, with one I/O thread like every other process on
/// the measured paths.
final class LeanContext {
    let handle: UnsafeMutableRawPointer

    init() {
        guard let ctx = zmq_ctx_new() else { fatalError("zmq_ctx_new failed: out of memory") }
        handle = ctx
        _ = zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, 4096)
    }

    deinit { _ = zmq_ctx_term(handle) }
}
