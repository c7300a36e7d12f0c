import Foundation
import IntentBusCore

/// Carries items from any thread to the thread that owns a poll loop, waking that loop
/// through an `inproc` socket it polls.
///
/// Threading: `post` may be called from any thread. `receiver` and `drain` belong to the
/// loop's thread. The PUSH side is guarded by `lock`, which also gives libzmq the full
/// memory barrier it requires when a socket is used from several threads.
public final class Mailbox<Item: Sendable>: @unchecked Sendable {
    // @unchecked: `queue` and `push` are only touched under `lock`; `pull` only by the loop.
    private let lock = Lock()
    private var queue: [Item] = []
    private let push: ZMQSocket
    /// The socket the loop polls. Owned by the loop's thread.
    public let receiver: ZMQSocket

    public init(context: ZMQContext, name: String) throws(ZMQError) {
        let endpoint = "inproc://mailbox-\(name)-\(UUID().uuidString)"
        receiver = try ZMQSocket(context, .pull)
        try receiver.bind(endpoint)
        push = try ZMQSocket(context, .push)
        try push.connect(endpoint)
    }

    /// Queues `item` and wakes the loop. Any thread.
    public func post(_ item: Item) {
        lock.withLock {
            let wasEmpty = queue.isEmpty
            queue.append(item)
            // One wake-up per batch: the loop takes the whole queue after reading wakes.
            if wasEmpty { _ = try? push.send([Frame()]) }
        }
    }

    /// Wakes the loop without posting anything (it then finds its other work, such as
    /// jobs queued for it). Any thread.
    public func wake() {
        lock.withLock { _ = try? push.send([Frame()]) }
    }

    /// Takes everything posted so far. Loop thread only.
    public func drain() -> [Item] {
        while (try? receiver.receive(dontWait: true)) != nil {}
        return lock.withLock {
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }

    /// Closes both sockets. Call from the loop thread when the loop ends.
    public func close() {
        lock.withLock { push.close() }
        receiver.close()
    }
}
