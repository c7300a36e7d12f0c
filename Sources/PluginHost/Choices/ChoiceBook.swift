import Foundation
import IntentBus

/// The remembered "always" choices as the router uses them: an in-memory copy for
/// look-ups, written through to a `ChoiceStore` for durability.
///
/// Why a copy: the router asks for a default on every request for a contested intent,
/// on the thread that owns the sockets. Reading memory there costs nothing; a SQLite
/// query would. Writes (a client answered "always", `ib.choices.set/reset`) go to the
/// store first and to memory only once they have committed, so that what the host
/// acknowledges has reached the disk and survives `kill -9`. Writes are rare and made by
/// people, so their fsync on the router thread is an accepted cost.
///
/// The host owns the database while it runs; nothing else writes it behind its back
/// (the CLI changes choices over the bus, through the host).
///
/// When the store could not be opened (an unwritable state directory, a database from a
/// newer IntentBus), the book keeps choices in memory only and says why in
/// `storeProblem`; the host keeps routing.
///
/// Threading: owned by the router thread; not thread-safe.
final class ChoiceBook {
    /// The durable copy, or nil when choices live in memory only.
    let store: ChoiceStore?
    /// Why there is no durable copy, or nil.
    let storeProblem: String?
    /// intent → client key → choice. The key `""` is the entry for every client, as in
    /// the store.
    private var entries: [String: [String: RememberedChoice]] = [:]

    /// A book over `store`, loaded with everything it holds. A store that cannot be read
    /// is dropped and the book works in memory only.
    init(store: ChoiceStore?, problem: String? = nil) {
        guard let store else {
            self.store = nil
            storeProblem = problem ?? "no choice store"
            return
        }
        do {
            for choice in try store.list() { entries[choice.intent, default: [:]][choice.client ?? ""] = choice }
            self.store = store
            storeProblem = problem
        } catch {
            self.store = nil
            storeProblem = "can't read \(store.databasePath): \(error)"
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
    var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// The choice that applies when `client` asks for `intent`: the client's own entry,
    /// else the entry for every client, else nil.
    func lookup(intent: String, client: String?) -> RememberedChoice? {
        guard let forIntent = entries[intent] else { return nil }
        if let client, !client.isEmpty, let own = forIntent[client] { return own }
        return forIntent[""]
    }

    /// Every remembered choice, by intent, then client (the entry for every client first).
    var all: [RememberedChoice] {
        entries.keys.sorted().flatMap { intent in
            entries[intent]!.keys.sorted().map { entries[intent]![$0]! }
        }
    }

    /// Remembers `plugin` for `intent` (for `client`, or every client when nil),
    /// durably first.
    ///
    /// - Returns: the entry as stored.
    @discardableResult
    func remember(intent: String, client: String?, plugin: String, source: String) throws(ChoiceStoreError) -> RememberedChoice {
        let client = client.flatMap { $0.isEmpty ? nil : $0 }
        let choice: RememberedChoice
        if let store {
            choice = try store.remember(intent: intent, client: client, plugin: plugin, source: source)
        } else {
            choice = RememberedChoice(intent: intent, client: client, plugin: plugin, setAt: Date(), source: source)
        }
        entries[intent, default: [:]][client ?? ""] = choice
        return choice
    }

    /// Forgets the choices for `intent`: only `client`'s own when given, else every
    /// entry for the intent. Returns how many were removed.
    @discardableResult
    func reset(intent: String, client: String?) throws(ChoiceStoreError) -> Int {
        let client = client.flatMap { $0.isEmpty ? nil : $0 }
        let removed: Int
        if let store {
            removed = try store.reset(intent: intent, client: client)
        } else if let client {
            removed = entries[intent]?[client] == nil ? 0 : 1
        } else {
            removed = entries[intent]?.count ?? 0
        }
        if let client {
            entries[intent]?.removeValue(forKey: client)
            if entries[intent]?.isEmpty == true { entries.removeValue(forKey: intent) }
        } else {
            entries.removeValue(forKey: intent)
        }
        return removed
    }

    /// Forgets every choice. Returns how many were removed.
    @discardableResult
    func resetAll() throws(ChoiceStoreError) -> Int {
        let removed = try store?.resetAll() ?? count
        entries.removeAll()
        return removed
    }
}
