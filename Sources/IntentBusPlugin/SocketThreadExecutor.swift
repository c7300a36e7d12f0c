import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Runs the plugin's async handler tasks on the thread that runs the plugin's socket loop.
///
/// A handler that answers without waiting for anything then costs no thread switch at
/// all: the request is received, the task runs and its answer is sent, all on the one
/// thread, in the same turn of the loop. On the global executor the same answer cost two
/// wake-ups (the task's thread, then the socket thread through the mailbox), which was
/// most of the difference between a `perform()` and a raw echo (docs/performance.md).
///
/// A task that suspends (`Task.sleep`, a prompt, an actor call) is resumed here as well:
/// whoever resumes it enqueues its next job, and a job enqueued from a thread that does
/// not run the loop wakes the loop through `wake`. Handler code runs one job at a time,
/// between the loop's socket work. A job that blocks its thread, or computes for long
/// without suspending, would hold up every other request of the plugin and its HEARTBEAT
/// answers: by default `LoopHandover` then moves the loop to another thread, and that
/// thread runs the jobs queued behind it. With `PluginRuntime.runsHandlersOnSocketThread`
/// the loop stays where it is (no watcher), for plugins whose handlers are all quick.
///
/// Threading: `enqueue` from any thread; `runPending` by the loop's thread only.
final class SocketThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched under `lock`; `handover` and `wake` never change.
    private let lock = RequestLock()  // at least twice a turn: no NSLock
    private var jobs: [UnownedJob] = []
    private let handover: LoopHandover
    private let wake: @Sendable () -> Void

    /// `wake` makes the loop call `runPending` soon.
    init(handover: LoopHandover, wake: @escaping @Sendable () -> Void) {
        self.handover = handover
        self.wake = wake
    }

    /// Whether the caller runs the loop.
    var isOnLoopThread: Bool { handover.isLeader }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let wasEmpty = lock.withLock { () -> Bool in
            let empty = jobs.isEmpty
            jobs.append(unowned)
            return empty
        }
        // The loop runs its queue at the top of every turn; only a job from elsewhere
        // needs to interrupt a wait.
        if wasEmpty && !isOnLoopThread { wake() }
    }

    /// Whether jobs are waiting. Any thread.
    var hasPending: Bool { lock.withLock { !jobs.isEmpty } }

    /// Runs every job queued so far, and the jobs those queue, until none is left. False
    /// when the loop was handed to another thread meanwhile (a job held this one too
    /// long): the jobs not yet run are queued again for the new loop thread. Loop thread
    /// only.
    func runPending() -> Bool {
        while true {
            let batch = lock.withLock { () -> [UnownedJob] in
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            if batch.isEmpty { return true }
            for index in batch.indices {
                guard handover.beginJob() else {
                    requeue(batch[index...])
                    return false
                }
                batch[index].runSynchronously(on: asUnownedTaskExecutor())
                guard handover.endJob() else {
                    requeue(batch[(index + 1)...])
                    return false
                }
            }
        }
    }

    /// Puts jobs back at the head of the queue, in order, and wakes the loop for them.
    private func requeue(_ rest: ArraySlice<UnownedJob>) {
        guard !rest.isEmpty else { return }
        lock.withLock { jobs.insert(contentsOf: rest, at: 0) }
        wake()
    }
}
