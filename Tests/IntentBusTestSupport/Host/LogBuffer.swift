import Foundation
import IntentBus

/// Collects a child's output from the pipe's reader thread.
package final class LogBuffer: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`.
    private let lock = Lock()
    private var data = Data()
    package init() {}
    package func append(_ d: Data) { lock.withLock { data.append(d) } }
    package var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
