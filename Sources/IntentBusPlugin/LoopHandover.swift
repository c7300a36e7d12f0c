import Foundation
import IntentBusCore

/// Which thread runs the plugin's socket loop, and handing the loop to another thread when
/// a handler holds the one it runs on.
///
/// By default handler tasks run on the loop's thread (`SocketThreadExecutor`): a handler
/// that answers at once costs no thread switch. A handler that blocks its thread, or
/// computes for long without suspending, would then stop the loop, and with it the
/// plugin's HEARTBEAT answers and its other requests. So a watcher thread looks at the
/// loop every `tick`: when the same handler job has been running across two looks (that
/// is, for one to two ticks: 10–20 ms, against the 100 ms the shortest `heartbeat` allows
/// before a plugin counts as hung), it hands the loop to another thread (a parked one, or
/// a new one, at most `maximumThreads` in all), which carries on with the socket, the
/// heartbeats and the other requests. The thread left in the handler finishes that job,
/// sees it no longer leads, and parks until a later handover needs it.
///
/// The socket and the mailbox's receiver move with the lead: one thread at a time uses
/// them (libzmq allows a socket to move between threads with a full memory barrier, which
/// `condition`'s mutex gives). The watcher costs nothing per request: it does not run while
/// the plugin is idle (it parks, and the first job after that wakes it), and while
/// requests flow it wakes every `tick`.
///
/// Threading: every method from any thread; the state is only touched with `condition`
/// locked.
final class LoopHandover: @unchecked Sendable {
    // @unchecked: every variable below is read and written with `condition` locked.
    /// How often the watcher looks at the loop.
    static let tick: TimeInterval = 0.010
    /// At most this many threads take turns at the loop (each handler that blocks holds
    /// one); beyond it the loop waits for its handler, as with `runsHandlersOnSocketThread`.
    static let maximumThreads = 64

    private let condition = NSCondition()
    /// The thread that runs the loop; nil while a handover is under way.
    private var leader: pthread_t?
    /// Whether the leader is running a handler job, and how many it has started.
    private var inJob = false
    private var jobsStarted: UInt64 = 0
    /// A handover was decided and no thread has taken the lead yet.
    private var leadWanted = false
    private var parkedFollowers = 0
    private var threads = 1
    private var watcherParked = false
    private let watches: Bool
    /// What a thread started for a handover runs.
    private var follower: (@Sendable () -> Void)?

    /// The calling thread leads. `watches`: whether a watcher hands the loop over (the
    /// default); without it, the loop stays on this thread whatever its handlers do.
    init(watches: Bool) {
        self.watches = watches
        leader = pthread_self()
    }

    /// Starts the watcher. `follower` is the body of a thread started to take the lead:
    /// it waits for the lead (`awaitLead`) and then runs the loop.
    func start(follower: @escaping @Sendable () -> Void) {
        guard watches else { return }
        condition.withLock { self.follower = follower }
        let watcher = Thread { [self] in watch() }
        watcher.name = "intentbus-watch"
        watcher.start()
    }

    /// Whether the calling thread runs the loop.
    var isLeader: Bool { condition.withLock { isLeaderLocked } }

    private var isLeaderLocked: Bool { leader.map { pthread_equal($0, pthread_self()) != 0 } ?? false }

    /// Runs `body` if the calling thread runs the loop, with the lead held fixed meanwhile.
    func ifLeader(_ body: () -> Void) -> Bool {
        condition.withLock {
            guard isLeaderLocked else { return false }
            body()
            return true
        }
    }

    /// The leader is about to run a handler job. False if it no longer leads.
    func beginJob() -> Bool {
        condition.withLock {
            guard isLeaderLocked else { return false }
            inJob = true
            jobsStarted &+= 1
            if watcherParked {
                watcherParked = false
                condition.broadcast()
            }
            return true
        }
    }

    /// A handler job has returned. False if the loop was handed to another thread meanwhile.
    func endJob() -> Bool {
        condition.withLock {
            guard isLeaderLocked else { return false }
            inJob = false
            return true
        }
    }

    /// Waits until the calling thread is given the lead, parked meanwhile.
    func awaitLead() {
        condition.withLock {
            parkedFollowers += 1
            while !leadWanted { condition.wait() }
            parkedFollowers -= 1
            leadWanted = false
            leader = pthread_self()
        }
    }

    /// The watcher's thread: parks while no job runs, otherwise looks every `tick`.
    private func watch() {
        condition.lock()
        var seen: UInt64? = nil
        while true {
            if !inJob && seen == jobsStarted {
                watcherParked = true
                while watcherParked { condition.wait() }
                seen = nil
                continue
            }
            let (busy, count) = (inJob, jobsStarted)
            seen = count
            let deadline = Date(timeIntervalSinceNow: Self.tick)
            while Date() < deadline { _ = condition.wait(until: deadline) }
            guard busy && inJob && jobsStarted == count && !leadWanted && threads < Self.maximumThreads else { continue }
            // The same job for a whole tick: the loop goes to another thread.
            inJob = false
            leader = nil
            leadWanted = true
            if parkedFollowers > 0 {
                condition.broadcast()
            } else if let follower {
                threads += 1
                let thread = Thread(block: follower)
                thread.name = "intentbus-loop"
                thread.start()
            }
        }
    }
}
