import Foundation
import Testing
@testable import IntentBusStore

/// `ChoiceWriter` on its own: the writes a host queues commit in order on the writer's
/// thread, each outcome comes back under its id, and a write after `stop()` or on a
/// closed store comes back as a failure, never not at all.
@Suite("ChoiceWriter: writes on their own thread")
struct ChoiceWriterStoreTests {
    @Test("remember, reset and reload run in the order submitted, each answered once under its id")
    func inOrder() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            let outcomes = WriterOutcomes()
            let writer = ChoiceWriter(store: store) { id, result in outcomes.add(id, result) }
            writer.submit(1, .remember(intent: "I", client: nil, plugin: "all", source: "cli"))
            writer.submit(2, .remember(intent: "I", client: "kim", plugin: "own", source: "always"))
            writer.submit(3, .reset(intent: "I", client: "kim"))
            writer.submit(4, .reload)
            writer.submit(5, .resetAll)
            writer.stop()
            let all = outcomes.all
            #expect(all.map(\.0) == [1, 2, 3, 4, 5])
            guard all.count == 5 else { return }
            if case .success(.remembered(let choice)) = all[1].1 { #expect(choice.plugin == "own" && choice.client == "kim") }
            else { Issue.record("write 2: \(all[1].1)") }
            if case .success(.removed(let n)) = all[2].1 { #expect(n == 1) } else { Issue.record("write 3: \(all[2].1)") }
            if case .success(.reloaded(let choices)) = all[3].1 {
                #expect(choices.map(\.plugin) == ["all"], "the reload saw the writes before it")
            } else { Issue.record("write 4: \(all[3].1)") }
            if case .success(.removed(let n)) = all[4].1 { #expect(n == 1) } else { Issue.record("write 5: \(all[4].1)") }
            #expect(try store.list().isEmpty)
            store.close()
        }
    }

    @Test("a write on a closed store, and one after stop(), is answered with a failure")
    func failures() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            store.close()
            let outcomes = WriterOutcomes()
            let writer = ChoiceWriter(store: store) { id, result in outcomes.add(id, result) }
            writer.submit(1, .remember(intent: "I", client: nil, plugin: "p", source: "api"))
            writer.stop()
            writer.submit(2, .resetAll)
            let all = outcomes.all
            #expect(all.map(\.0) == [1, 2])
            if case .failure(let error) = all.first?.1 { #expect(error.code == .closed) } else { Issue.record("\(all)") }
            if case .failure(let error) = all.last?.1 { #expect(error.code == .queryFailed && error.detail.contains("stopped")) } else { Issue.record("\(all)") }
        }
    }
}

/// Outcomes posted by the writer thread.
private final class WriterOutcomes: @unchecked Sendable {
    // @unchecked: `items` is guarded by `lock`.
    private let lock = NSLock()
    private var items: [(UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>)] = []

    func add(_ id: UInt64, _ result: Result<ChoiceWriteOutcome, ChoiceStoreError>) {
        lock.lock(); items.append((id, result)); lock.unlock()
    }

    var all: [(UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>)] { lock.lock(); defer { lock.unlock() }; return items }
}
