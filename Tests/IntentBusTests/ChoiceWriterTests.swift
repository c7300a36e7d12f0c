import Foundation
import IntentBus
@testable import PluginHost
import Testing
import IntentBusStore

/// Remembered choices are written on the writer's own thread: the router thread only
/// queues them, and the in-memory book changes when the commit comes back (issue 10:
/// a client that made every request remember a choice stalled everyone else).
@Suite("Choice writes off the router thread")
struct ChoiceWriterTests {
    @Test("remember returns at once; memory and the acknowledgement change only after the commit comes back")
    func writesAreAsynchronous() throws {
        let dir = NSTemporaryDirectory() + "ibwriter-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let book = ChoiceBook(store: try ChoiceStore(directory: dir))
        let outcomes = Outcomes()
        book.startWriter { id, result in outcomes.add(id, result) }
        var acknowledged: RememberedChoice?
        book.remember(intent: "I", client: "c", plugin: "alpha", source: "always") { acknowledged = try? $0.get() }
        #expect(acknowledged == nil, "nothing is acknowledged before the commit")
        #expect(book.lookup(intent: "I", client: "c") == nil, "memory changes only after the commit")
        #expect(book.pendingWrites == 1)
        let (id, result) = try #require(outcomes.wait(count: 1).first)
        book.completed(id, result)  // what the router does with the event
        #expect(acknowledged?.plugin == "alpha")
        #expect(book.lookup(intent: "I", client: "c")?.plugin == "alpha")
        // Remembering the same again writes nothing and answers at once.
        var again: RememberedChoice?
        book.remember(intent: "I", client: "c", plugin: "alpha", source: "always") { again = try? $0.get() }
        #expect(again?.plugin == "alpha" && book.pendingWrites == 0)
        // A reset, in order after it.
        var removed: Int?
        book.reset(intent: "I", client: nil) { removed = try? $0.get() }
        let second = try #require(outcomes.wait(count: 2).last)
        book.completed(second.0, second.1)
        #expect(removed == 1 && book.lookup(intent: "I", client: "c") == nil)
        book.stopWriter()
        // It reached the disk.
        #expect(try ChoiceStore(directory: dir).list().isEmpty)
    }
}

/// Outcomes posted by the writer thread.
private final class Outcomes: @unchecked Sendable {
    // @unchecked: `items` is guarded by `lock`.
    private let lock = NSLock()
    private var items: [(UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>)] = []

    func add(_ id: UInt64, _ result: Result<ChoiceWriteOutcome, ChoiceStoreError>) {
        lock.lock(); items.append((id, result)); lock.unlock()
    }

    func wait(count: Int) -> [(UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>)] {
        for _ in 0..<500 {
            lock.lock(); let now = items; lock.unlock()
            if now.count >= count { return now }
            usleep(10_000)
        }
        return []
    }
}
