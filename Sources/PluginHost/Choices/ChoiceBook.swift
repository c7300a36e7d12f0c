import Foundation
import IntentBusCore
import IntentBusStore

/// The remembered "always" choices as the router uses them: an in-memory copy for
/// look-ups, written through to a `ChoiceStore` for durability.
///
/// Why a copy: the router asks for a default on every request for a contested intent,
/// on the thread that owns the sockets. Reading memory there costs nothing; a SQLite
/// query would. Writes (a client answered "always", `ib.choices.set/reset`) go to the
/// store first, on the `ChoiceWriter`'s thread, and to memory only once they have
/// committed, so that what the host acknowledges has reached the disk and survives
/// `kill -9`, and the fsync never stalls routing.
///
/// The host owns the database while it runs; nothing else writes it behind its back
/// (the CLI changes choices over the bus, through the host).
///
/// When the store could not be opened (an unwritable state directory, a database from a
/// newer IntentBus), the book keeps choices in memory only and says why in
/// `storeProblem`; the host keeps routing.
///
/// Threading: owned by the router thread; not thread-safe (the writer thread only ever
/// touches the store, never the book).
final class ChoiceBook {
    /// The durable copy, or nil when choices live in memory only.
    let store: ChoiceStore?
    /// Why there is no durable copy, or nil.
    let storeProblem: String?
    /// intent → client key → choice. The key `""` is the entry for every client, as in
    /// the store.
    private var entries: [String: [String: RememberedChoice]] = [:]
    /// The same keys, sorted for paged listing.
    private var order = ChoiceOrder()

    /// A book over `store`, loaded with everything it holds. A store that cannot be read
    /// is dropped and the book works in memory only.
    init(store: ChoiceStore?, problem: String? = nil) {
        guard let store else {
            self.store = nil
            storeProblem = problem ?? "no choice store"
            return
        }
        switch Result(catching: { () throws(ChoiceStoreError) in try store.list() }) {
        case .success(let stored):
            self.store = store
            storeProblem = problem
            for choice in stored { put(choice) }
        case .failure(let error) where error.code == .stateUnavailable:
            // A shared database that is away: it is still where choices live, and the
            // state listener loads them once it is back.
            self.store = store
            storeProblem = problem
        case .failure(let error):
            self.store = nil
            storeProblem = "can't read \(store.databasePath): \(error)"
        }
    }

    /// A book over the shared PostgreSQL state (`host.state`): loaded now when the
    /// database answers, else by the state listener once it does.
    static func open(postgres conninfo: String, logger: Logger) -> ChoiceBook {
        do {
            let book = ChoiceBook(store: ChoiceStore(postgres: try PostgresDatabase.forState(conninfo)))
            logger.info("choice store: \(book.count) remembered choices in the shared state \(conninfo)")
            return book
        } catch {
            logger.error("choice store: \(error); remembered choices will not survive a restart")
            return ChoiceBook(store: nil, problem: error.description)
        }
    }

    /// Opens the store in the host's state directory and loads it. Logs a recovered
    /// corrupt database as a warning and an unusable one as an error; never fails.
    static func open(directory: String, logger: Logger) -> ChoiceBook {
        do {
            let store = try ChoiceStore(directory: directory)
            if let note = store.recoveryNote { logger.warning("choice store: \(note)") }
            let book = ChoiceBook(store: store)
            if let problem = book.storeProblem {
                logger.error("choice store: \(problem); remembered choices will not survive a restart")
            } else {
                logger.info("choice store: \(book.count) remembered choices in \(store.databasePath)")
            }
            return book
        } catch {
            logger.error("choice store: can't open it (\(error)); remembered choices will not survive a restart")
            return ChoiceBook(store: nil, problem: error.description)
        }
    }

    /// Whether changes reach the disk.
    var isPersistent: Bool { store != nil }
    /// How many choices are remembered.
    var count: Int { order.count }

    /// The choice that applies when `client` asks for `intent`: the client's own entry,
    /// else the entry for every client, else nil.
    func lookup(intent: String, client: String?) -> RememberedChoice? {
        guard let forIntent = entries[intent] else { return nil }
        if let client, !client.isEmpty, let own = forIntent[client] { return own }
        return forIntent[""]
    }

    /// Every remembered choice, by intent, then client (the entry for every client first).
    var all: [RememberedChoice] { order.keys.compactMap { entries[$0.intent]?[$0.client] } }

    /// One page of the listing: up to `limit` choices after the key `after` (from the
    /// start when nil), of `intent` only when given, that `include` accepts; `next` is
    /// the key to continue after, nil at the end. At most `4 × limit` entries are looked
    /// at per page, so that a filter that skips most costs no more than a full page.
    func page(after: ChoiceOrder.Key?, intent: String?, limit: Int,
              include: (RememberedChoice) -> Bool) -> (choices: [RememberedChoice], next: ChoiceOrder.Key?) {
        var index: Int
        if let after {
            index = order.lowerBound(after)
            if index < order.count, order.keys[index] == after { index += 1 }
        } else {
            index = intent.map { order.lowerBound(ChoiceOrder.Key(intent: $0, client: "")) } ?? 0
        }
        if let intent, let after, after.intent < intent {
            index = max(index, order.lowerBound(ChoiceOrder.Key(intent: intent, client: "")))
        }
        var choices: [RememberedChoice] = []
        var looked = 0
        while index < order.count, choices.count < limit, looked < 4 * limit {
            let key = order.keys[index]
            if let intent, key.intent != intent { return (choices, nil) }
            if let choice = entries[key.intent]?[key.client], include(choice) { choices.append(choice) }
            index += 1
            looked += 1
        }
        guard index < order.count, intent == nil || order.keys[index].intent == intent else { return (choices, nil) }
        return (choices, order.keys[index - 1])
    }

    /// Replaces every entry with `choices`, the shared state as another host left it.
    func replaceAll(with choices: [RememberedChoice]) {
        entries.removeAll()
        order.removeAll()
        for choice in choices { put(choice) }
    }

    private func put(_ choice: RememberedChoice) {
        entries[choice.intent, default: [:]][choice.client ?? ""] = choice
        order.insert(ChoiceOrder.Key(intent: choice.intent, client: choice.client ?? ""))
    }

    // MARK: - Writes

    /// Sends writes to the store's own thread (nil: in memory only); set by `startWriter`.
    private var writer: ChoiceWriter?
    private var nextWrite: UInt64 = 0
    /// What to do when each submitted write has committed, by write id.
    private var pending: [UInt64: (Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void] = [:]

    /// Starts the writer thread; `post` carries each outcome back to the router thread,
    /// which hands it to `completed`.
    func startWriter(post: @escaping @Sendable (UInt64, Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void) {
        guard let store, writer == nil else { return }
        writer = ChoiceWriter(store: store, done: post)
    }

    /// Finishes the queued writes and stops the writer thread (at shutdown).
    func stopWriter() {
        writer?.stop()
        writer = nil
    }

    /// Writes still waiting for their commit.
    var pendingWrites: Int { pending.count }

    /// A write committed (or failed) on the writer thread: update memory, then run what
    /// waited for it. Router thread.
    func completed(_ id: UInt64, _ result: Result<ChoiceWriteOutcome, ChoiceStoreError>) {
        pending.removeValue(forKey: id)?(result)
    }

    private func submit(_ write: ChoiceWrite, then: @escaping (Result<ChoiceWriteOutcome, ChoiceStoreError>) -> Void) {
        guard let writer else {
            then(.success(applyInMemoryOnly(write)))
            return
        }
        nextWrite += 1
        pending[nextWrite] = then
        writer.submit(nextWrite, write)
    }

    /// Whether the choices live in a database other hosts share (`host.state`).
    var isShared: Bool { store?.isShared ?? false }

    /// Reads every choice afresh from the shared database, on the writer's thread, then
    /// runs `then` on the router thread: before this host prompts, so that a choice
    /// another host remembered a moment ago is honored although its notification has not
    /// arrived yet. A failed read (the database is away) leaves the cache as it is.
    func refresh(then: @escaping () -> Void) {
        submit(.reload) { [self] result in
            if case .success(.reloaded(let choices)) = result { replaceAll(with: choices) }
            then()
        }
    }

    /// Whether remembering `plugin` for `intent` and `client` would change anything.
    func wouldChange(intent: String, client: String?, plugin: String, source: String) -> Bool {
        guard let same = entries[intent]?[client.flatMap { $0.isEmpty ? nil : $0 } ?? ""] else { return true }
        return same.plugin != plugin || same.source != source
    }

    /// Remembers `plugin` for `intent` (for `client`, or every client when nil): durably
    /// first, then in memory, then `then` runs with the entry as stored. Remembering what
    /// is already remembered for exactly that client writes nothing.
    func remember(intent: String, client: String?, plugin: String, source: String,
                  then: @escaping (Result<RememberedChoice, ChoiceStoreError>) -> Void) {
        let client = client.flatMap { $0.isEmpty ? nil : $0 }
        if let same = entries[intent]?[client ?? ""], same.plugin == plugin, same.source == source {
            return then(.success(same))
        }
        submit(.remember(intent: intent, client: client, plugin: plugin, source: source)) { [self] result in
            switch result {
            case .success(.remembered(let choice)):
                put(choice)
                then(.success(choice))
            case .success(.removed), .success(.reloaded):
                then(.failure(ChoiceStoreError(.queryFailed, path: store?.databasePath ?? "", detail: "unexpected outcome of a write")))
            case .failure(let error):
                then(.failure(error))
            }
        }
    }

    /// Forgets the choices for `intent`: only `client`'s own when given, else every
    /// entry for the intent (or every choice, with `intent` nil). `then` gets how many
    /// were removed, after commit.
    func reset(intent: String?, client: String?, then: @escaping (Result<Int, ChoiceStoreError>) -> Void) {
        let client = client.flatMap { $0.isEmpty ? nil : $0 }
        let write: ChoiceWrite = intent.map { .reset(intent: $0, client: client) } ?? .resetAll
        submit(write) { [self] result in
            switch result {
            case .success(.removed(let removed)):
                forget(intent: intent, client: client)
                then(.success(removed))
            case .success(.remembered), .success(.reloaded):
                then(.failure(ChoiceStoreError(.queryFailed, path: store?.databasePath ?? "", detail: "unexpected outcome of a write")))
            case .failure(let error):
                then(.failure(error))
            }
        }
    }

    private func forget(intent: String?, client: String?) {
        guard let intent else {
            order.removeAll()
            return entries.removeAll()
        }
        if let client {
            entries[intent]?.removeValue(forKey: client)
            order.remove(ChoiceOrder.Key(intent: intent, client: client))
            if entries[intent]?.isEmpty == true { entries.removeValue(forKey: intent) }
        } else {
            entries.removeValue(forKey: intent)
            order.remove(intent: intent)
        }
    }

    /// The outcome of a write when there is no store (memory only).
    private func applyInMemoryOnly(_ write: ChoiceWrite) -> ChoiceWriteOutcome {
        switch write {
        case .remember(let intent, let client, let plugin, let source):
            return .remembered(RememberedChoice(intent: intent, client: client, plugin: plugin, setAt: Date(), source: source))
        case .reset(let intent, let client):
            if let client { return .removed(entries[intent]?[client] == nil ? 0 : 1) }
            return .removed(entries[intent]?.count ?? 0)
        case .resetAll:
            return .removed(count)
        case .reload:
            return .reloaded(all)
        }
    }
}
