import Foundation

/// A counter shared by the harness's threads.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    /// The next number below `limit`, or nil once `limit` numbers were handed out.
    func next(upTo limit: Int) -> Int? {
        lock.withLock {
            guard count < limit else { return nil }
            count += 1
            return count - 1
        }
    }

    var value: Int { lock.withLock { count } }
}
