internal import CZeroMQ

/// What a counted frame (`Frame(copyOf:heldIn:)`) hands libzmq as its free function's
/// hint: a private reference to the original frame's content and the counter to tell,
/// in one allocation at a fixed address (libzmq keeps the pointer until it frees the
/// frame, on its I/O thread).
struct CountedKeeper {
    /// A `zmq_msg_copy` of the original frame: the content's reference count keeps its
    /// bytes alive, whatever becomes of the original frame meanwhile.
    var message = zmq_msg_t()
    let held: HeldBytes

    /// The address of a keeper's `message`, for libzmq calls (the keeper's address is fixed).
    static func message(of keeper: UnsafeMutablePointer<CountedKeeper>) -> UnsafeMutablePointer<zmq_msg_t> {
        (UnsafeMutableRawPointer(keeper) + MemoryLayout<CountedKeeper>.offset(of: \.message)!)
            .assumingMemoryBound(to: zmq_msg_t.self)
    }

    /// A keeper sharing `frame`'s content.
    static func make(sharing frame: Frame, held: HeldBytes) -> UnsafeMutablePointer<CountedKeeper> {
        let keeper = UnsafeMutablePointer<CountedKeeper>.allocate(capacity: 1)
        keeper.initialize(to: CountedKeeper(held: held))
        let msg = message(of: keeper)
        zmq_msg_init(msg)
        frame.withMsg { from in _ = zmq_msg_copy(msg, from) }
        return keeper
    }

    /// Gives the bytes back to libzmq (the shared content's count falls), tells the
    /// counter, and frees the keeper.
    static func release(_ keeper: UnsafeMutablePointer<CountedKeeper>) {
        let msg = message(of: keeper)
        let count = zmq_msg_size(msg)
        zmq_msg_close(msg)
        keeper.pointee.held.release(count)
        keeper.deinitialize(count: 1)
        keeper.deallocate()
    }
}
