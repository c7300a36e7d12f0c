import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata
import IntentBusStore

/// What another host changed in the shared state, read afresh: the whole table, so that
/// a notification lost while the database was away costs nothing (every reconnection
/// reads both tables again).
struct StateReload: Sendable {
    /// Every remembered choice, or nil when they did not change.
    let choices: [RememberedChoice]?
    /// Every user phrase, or nil when they did not change.
    let userPhrases: [UserPhrase]?
}

/// Keeps one host's caches (the choice book, the user phrases) in step with the other
/// hosts on one PostgreSQL database (`host.state`). The stores announce each committed
/// change with NOTIFY (`StateDatabase.announceChange`); this thread LISTENs on a
/// connection of its own, reads the changed table and posts it to the router as
/// `RouterEvent.stateReloaded`, a few milliseconds after the other host's commit.
///
/// While the database is away the thread retries every 200 ms (the connection's own
/// backoff spaces the attempts); the host keeps answering from its cache meanwhile.
///
/// Threading: `start` and `stop` from the thread that owns the host; the loop's state
/// (connection, stores) is used only by the listener's own thread. `@unchecked Sendable`:
/// `stopping` is read and written under `lock` only.
final class StateListener: @unchecked Sendable {
    private let conninfo: String
    private let logger: Logger
    private let post: @Sendable (RouterEvent) -> Void
    private let lock = Lock()
    private var stopping = false
    private var started = false
    private let finished = DispatchSemaphore(value: 0)

    init(conninfo: String, logger: Logger, post: @escaping @Sendable (RouterEvent) -> Void) {
        self.conninfo = conninfo
        self.logger = logger
        self.post = post
    }

    /// Starts the thread.
    func start() {
        lock.withLock { started = true }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "intentbus-state-listener"
        thread.start()
    }

    /// Stops the thread; returns once it has (within about 200 ms).
    func stop() {
        let wasStarted = lock.withLock { () -> Bool in
            stopping = true
            return started
        }
        if wasStarted { finished.wait() }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func run() {
        let db: PostgresDatabase
        do { db = try PostgresDatabase.forState(conninfo, listening: true) } catch {
            return logger.error("shared state: \(error)")
        }
        defer { db.close() }
        let connected = ConnectedFlag()
        let prepare = db.onConnect
        db.onConnect = { db in
            try prepare?(db)
            connected.isNew = true
        }
        let choices = ChoiceStore(postgres: db)
        let shortcuts = ShortcutStore(postgres: db)
        var reachable = true
        while !isStopping {
            do {
                var tables = Set(try db.notifications(timeoutMilliseconds: 200))
                if connected.isNew {
                    connected.isNew = false
                    tables = ["choices", "user_phrases"]
                    if !reachable { logger.info("shared state: \(db.location) is reachable again") }
                }
                reachable = true
                guard !tables.isEmpty else { continue }
                let reload = StateReload(choices: tables.contains("choices") ? try choices.list() : nil,
                                         userPhrases: tables.contains("user_phrases") ? try shortcuts.userPhrases() : nil)
                post(.stateReloaded(reload))
            } catch {
                if reachable {
                    logger.warning("shared state: \(error); reads answer from this host's cache, changes are refused (state_unavailable) until it is back")
                }
                reachable = false
                usleep(200_000)
            }
        }
    }
}

/// Set by `onConnect` on the listener's thread, read by the same thread.
private final class ConnectedFlag {
    var isNew = false
}
