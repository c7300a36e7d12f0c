import Foundation
import Synchronization
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Where handler tasks put the messages they want sent (`PluginContext`'s outbox).
///
/// On the thread that runs the loop (a task running on `SocketThreadExecutor`) a message
/// goes into a list that the loop sends in the same turn: no wake-up. From any other
/// thread it goes through the `Mailbox`, which wakes the loop.
///
/// Threading: `post` from any thread; `takeLocal` by the loop's thread only.
final class PluginOutbox: @unchecked Sendable {
    // @unchecked: `local` is only touched inside `handover.ifLeader`, that is by the
    // thread that runs the loop, with the lead held fixed; other threads only use the
    // mailbox, which is thread-safe.
    private let mailbox: Mailbox<OutgoingMessage>
    private let handover: LoopHandover
    private var local: [OutgoingMessage] = []
    /// Whether `local` holds a message: `takeLocal`, called at least once a turn, looks at
    /// this first and takes the lead's lock only when there is something to take.
    private let hasLocal = Atomic<Bool>(false)
    /// `post`, as the closure every request's `PluginContext` holds: made once, not per
    /// request. (It holds the outbox, which lives as long as the plugin's loop.)
    private(set) var poster: @Sendable (OutgoingMessage) -> Void = { _ in }

    init(mailbox: Mailbox<OutgoingMessage>, handover: LoopHandover) {
        self.mailbox = mailbox
        self.handover = handover
        poster = { [self] in post($0) }
    }

    func post(_ message: OutgoingMessage) {
        if !handover.ifLeader({ local.append(message); hasLocal.store(true, ordering: .releasing) }) {
            mailbox.post(message)
        }
    }

    /// The messages posted on the loop's thread since the last call. Loop thread only.
    func takeLocal() -> [OutgoingMessage] {
        guard hasLocal.load(ordering: .acquiring) else { return [] }
        var taken: [OutgoingMessage] = []
        _ = handover.ifLeader {
            guard !local.isEmpty else { return }
            taken = local
            local.removeAll(keepingCapacity: true)
            hasLocal.store(false, ordering: .releasing)
        }
        return taken
    }
}
