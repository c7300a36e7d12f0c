import Intents

/// Messages sent since the plugin started; the count answers MessageStatusIntent.
final class Outbox: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    static let shared = Outbox()
    private let lock = NSLock()
    private var count = 0
    func add() -> Int { lock.withLock { count += 1; return count } }
    var sent: Int { lock.withLock { count } }
}
