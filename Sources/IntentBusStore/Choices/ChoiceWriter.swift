import Foundation

/// A change to the remembered choices, made on the writer's thread.
package enum ChoiceWrite: Sendable {
    case remember(intent: String, client: String?, plugin: String, source: String)
    case reset(intent: String, client: String?)
    case resetAll
    /// Read every choice afresh (a shared database: before a host prompts, in case
    /// another host has just remembered one).
    case reload
}

/// What a committed change did.
package enum ChoiceWriteOutcome: Sendable {
    case remembered(RememberedChoice)
    case removed(Int)
    case reloaded([RememberedChoice])
}

/// Writes remembered choices to the SQLite store on a thread of its own, so that an
/// fsync (`synchronous=FULL`, a millisecond or more) never stalls routing: at one
/// request in flight, commits on the router thread had halved the throughput of every
/// client (docs/reliability.md). Writes run in the order submitted; each one's outcome
/// goes to `done`, which the host turns into a router event, so that the change reaches
/// the router's in-memory book, and its acknowledgement the client, only after commit.
///
/// Threading: `submit` and `stop` from any thread (the queue is a `WorkerThread`);
/// `store` is used only by the worker thread.
package final class ChoiceWriter: Sendable {
    /// Writes waiting at most; the per-client write rate keeps far below it.
    package static let maximumQueued = 10_000
    private let worker: WorkerThread<(UInt64, ChoiceWrite)>
    private let done: @Sendable (UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void

    package init(store: ChoiceStore, done: @escaping @Sendable (UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void) {
        self.done = done
        worker = WorkerThread(name: "intentbus-choice-writer", limit: Self.maximumQueued) { jobs, _ in
            for (id, write) in jobs { done(id, ChoiceWriter.perform(write, on: store)) }
        }
    }

    /// Queues a write; its outcome goes to `done` with `id` (at once, as a failure, when
    /// the queue is full or the writer has stopped).
    package func submit(_ id: UInt64, _ write: ChoiceWrite) {
        if !worker.submit((id, write)) {
            done(id, .failure(ChoiceStoreError(.queryFailed, path: "", detail: "the writer has stopped, or too many writes are waiting")))
        }
    }

    /// Finishes the queued writes, then stops the thread; returns once it has.
    package func stop() { worker.stop() }

    private static func perform(_ write: ChoiceWrite, on store: ChoiceStore) -> Result<ChoiceWriteOutcome, ChoiceStoreError> {
        do {
            switch write {
            case .remember(let intent, let client, let plugin, let source):
                return .success(.remembered(try store.remember(intent: intent, client: client, plugin: plugin, source: source)))
            case .reset(let intent, let client):
                return .success(.removed(try store.reset(intent: intent, client: client)))
            case .resetAll:
                return .success(.removed(try store.resetAll()))
            case .reload:
                return .success(.reloaded(try store.list()))
            }
        } catch {
            return .failure(error)
        }
    }
}
