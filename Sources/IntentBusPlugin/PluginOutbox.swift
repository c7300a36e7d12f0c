import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Where handler tasks put the messages they want sent (`PluginContext`'s outbox).
///
/// On the loop's thread (a task running on `SocketThreadExecutor`) a message goes into a
/// plain list that the loop sends in the same turn: no lock, no wake-up. From any other
/// thread it goes through the `Mailbox`, which wakes the loop.
///
/// Threading: `post` from any thread; `takeLocal` on the loop's thread only.
final class PluginOutbox: @unchecked Sendable {
    // @unchecked: `local` is only touched on the loop's thread (checked by `executor`);
    // other threads only use the mailbox, which is thread-safe.
    private let mailbox: Mailbox<OutgoingMessage>
    private let executor: SocketThreadExecutor
    private var local: [OutgoingMessage] = []

    init(mailbox: Mailbox<OutgoingMessage>, executor: SocketThreadExecutor) {
        self.mailbox = mailbox
        self.executor = executor
    }

    func post(_ message: OutgoingMessage) {
        if executor.isOnLoopThread {
            local.append(message)
        } else {
            mailbox.post(message)
        }
    }

    /// The messages posted on the loop's thread since the last call. Loop thread only.
    func takeLocal() -> [OutgoingMessage] {
        if local.isEmpty { return [] }
        defer { local.removeAll(keepingCapacity: true) }
        return local
    }
}
