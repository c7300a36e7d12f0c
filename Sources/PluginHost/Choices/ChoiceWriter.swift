import Foundation

/// A change to the remembered choices, made on the writer's thread.
enum ChoiceWrite: Sendable {
    case remember(intent: String, client: String?, plugin: String, source: String)
    case reset(intent: String, client: String?)
    case resetAll
}

/// What a committed change did.
enum ChoiceWriteOutcome: Sendable {
    case remembered(RememberedChoice)
    case removed(Int)
}

/// Writes remembered choices to the SQLite store on a thread of its own, so that an
/// fsync (`synchronous=FULL`, a millisecond or more) never stalls routing: at one
/// request in flight, commits on the router thread had halved the throughput of every
/// client (docs/reliability.md). Writes run in the order submitted; each one's outcome
/// goes to `done`, which the host turns into a router event, so that the change reaches
/// the router's in-memory book, and its acknowledgement the client, only after commit.
///
/// Threading: `submit` and `stop` from any thread. `@unchecked Sendable`: `queue` and
/// `stopping` are guarded by `condition`; `store` is used only by the writer thread
/// once it has started.
final class ChoiceWriter: @unchecked Sendable {
    private let store: ChoiceStore
    private let condition = NSCondition()
    private var queue: [(UInt64, ChoiceWrite)] = []
    private var stopping = false
    private var finished = false
    private let done: @Sendable (UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void

    init(store: ChoiceStore, done: @escaping @Sendable (UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void) {
        self.store = store
        self.done = done
        let thread = Thread { [self] in run() }
        thread.name = "intentbus-choice-writer"
        thread.start()
    }

    /// Queues a write; its outcome goes to `done` with `id`.
    func submit(_ id: UInt64, _ write: ChoiceWrite) {
        condition.lock()
        queue.append((id, write))
        condition.signal()
        condition.unlock()
    }

    /// Finishes the queued writes, then stops the thread; returns once it has.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let (id, write) = queue.removeFirst()
            condition.unlock()
            done(id, perform(write))
        }
    }

    private func perform(_ write: ChoiceWrite) -> Result<ChoiceWriteOutcome, ChoiceStoreError> {
        do {
            switch write {
            case .remember(let intent, let client, let plugin, let source):
                return .success(.remembered(try store.remember(intent: intent, client: client, plugin: plugin, source: source)))
            case .reset(let intent, let client):
                return .success(.removed(try store.reset(intent: intent, client: client)))
            case .resetAll:
                return .success(.removed(try store.resetAll()))
            }
        } catch {
            return .failure(error)
        }
    }
}
