import Foundation

/// Log lines collected from a `Logger`'s sink, which any thread may call.
package final class LogLines: @unchecked Sendable {
    // @unchecked: `lines` is guarded by `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    package init() {}
    package func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    package var text: String { lock.lock(); defer { lock.unlock() }; return lines.joined(separator: "\n") }
}
