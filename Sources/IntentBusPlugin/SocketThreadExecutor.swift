import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Runs the plugin's async handler tasks on the plugin's socket thread.
///
/// A handler that answers without waiting for anything then costs no thread switch at
/// all: the request is received, the task runs and its answer is sent, all on the one
/// thread, in the same turn of the loop. On the global executor the same answer cost two
/// wake-ups (the task's thread, then the socket thread through the mailbox), which was
/// most of the difference between a `perform()` and a raw echo (docs/performance.md).
///
/// A task that suspends (`Task.sleep`, a prompt, an actor call) is resumed here as well:
/// whoever resumes it enqueues its next job, and a job enqueued from another thread wakes
/// the loop through `wake`. Handler code therefore runs one piece at a time, between the
/// loop's socket work: a handler that blocks the thread (or computes for long without
/// suspending) holds up every other request of the plugin, and its HEARTBEAT answers, so
/// the host would find it hung. That is why it is opt-in
/// (`PluginRuntime.runsHandlersOnSocketThread = true`), for plugins whose handlers are
/// all quick or suspend.
///
/// Threading: `enqueue` from any thread; `runPending` on the loop's thread only.
final class SocketThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched under `lock`; `owner` and `wake` never change.
    private let lock = Lock()
    private var jobs: [UnownedJob] = []
    private let owner = pthread_self()
    private let wake: @Sendable () -> Void

    /// Must be created on the loop's thread. `wake` makes the loop call `runPending` soon.
    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Whether the caller is the loop's thread.
    var isOnLoopThread: Bool { pthread_equal(pthread_self(), owner) != 0 }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let wasEmpty = lock.withLock { () -> Bool in
            let empty = jobs.isEmpty
            jobs.append(unowned)
            return empty
        }
        // The loop runs its queue at the top of every turn; only another thread's job
        // needs to interrupt a wait.
        if wasEmpty && !isOnLoopThread { wake() }
    }

    /// Whether jobs are waiting. Any thread.
    var hasPending: Bool { lock.withLock { !jobs.isEmpty } }

    /// Runs every job queued so far, and the jobs those queue, until none is left.
    /// Loop thread only.
    func runPending() {
        while true {
            let batch = lock.withLock { () -> [UnownedJob] in
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
