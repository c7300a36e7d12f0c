import Foundation
import IntentBus
import Synchronization

/// Ctrl-C in a client command that has a request open (`intentbus send`): the first
/// SIGINT asks for the request to be cancelled (the command sends CANCEL and exits after
/// the final answer), the second ends the process at once with status 130.
///
/// The handler is installed with `sigaction` and without `SA_RESTART`, so a prompt
/// blocked reading the terminal returns at once (the read fails with EINTR) and a
/// `zmq_poll` wakes up. It only counts; everything else happens on the command's thread.
enum Interrupts {
    /// SIGINTs received so far.
    private static let count = Atomic<Int>(0)

    /// Exit status after an interrupt, as shells report a death by SIGINT (128 + 2).
    static let exitStatus: Int32 = 130

    /// Installs the handler.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            // Only async-signal-safe calls here: an atomic add and _exit.
            let seen = Interrupts.count.add(1, ordering: .relaxed).newValue
            if seen >= 2 { _exit(Interrupts.exitStatus) }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have left SIGINT blocked (a test runner, a job control quirk).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether Ctrl-C has been pressed.
    static var interrupted: Bool { count.load(ordering: .relaxed) > 0 }

    /// Installs the handler and makes `client` cancel its open request on the first
    /// Ctrl-C (`send`, `say`): it sends CANCEL once, says so on stderr after `before`
    /// (clearing a progress line), and waits for the final answer.
    static func cancelRequests(of client: IntentClient, before: @escaping () -> Void = {}) {
        install()
        var told = false
        client.cancellation = {
            guard interrupted else { return false }
            if !told {
                told = true
                before()
                printError("\ncancelling… (Ctrl-C again to quit at once)")
            }
            return true
        }
    }
}
