import IntentBusCore
internal import CZeroMQ

/// Waits for several sockets at once (`zmq_poll`). Owned by the thread that owns the
/// sockets.
public struct Poller {
    private var items: [zmq_pollitem_t]

    /// Polls `sockets` for input.
    public init(_ sockets: [ZMQSocket]) {
        items = sockets.map { zmq_pollitem_t(socket: $0.handle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0) }
    }

    /// Polls `sockets`, then the plain file descriptors `fds` (an inotify descriptor, a
    /// pidfd), for input; `poll` answers in that order.
    public init(_ sockets: [ZMQSocket], fds: [Int32]) {
        self.init(sockets)
        items += fds.map { zmq_pollitem_t(socket: nil, fd: $0, events: Int16(ZMQ_POLLIN), revents: 0) }
    }

    /// Waits up to `timeoutMs` milliseconds (-1 = forever); afterwards `isReady(i)` says
    /// whether item `i` has input (no array per wait: a router round used to allocate one).
    /// An interrupted wait leaves every item not ready.
    public mutating func wait(timeoutMs: Int) throws(ZMQError) {
        let count = Int32(items.count)
        let rc = items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, count, timeoutMs) }
        if rc < 0 {
            let err = zmq_errno()
            guard err == EINTR else { throw ZMQError(code: err, function: "zmq_poll") }
            for i in items.indices { items[i].revents = 0 }
        }
    }

    /// Whether item `i` had input at the last `wait`.
    public func isReady(_ i: Int) -> Bool { (items[i].revents & Int16(ZMQ_POLLIN)) != 0 }

    /// How many items are polled.
    public var count: Int { items.count }
}
