import Foundation
import IntentBusCore
import IntentBusPlugin

/// Progress while a handler works, shown to the user as it happens ("Sending…"). SiriKit
/// has no counterpart: an extension answers once, at most with an `inProgress` code that
/// ends the request. Here a long `handle` can say what it is doing before it answers, as
/// the bus's progress messages let it (docs/protocol.md, docs/sirikit.md "What has no
/// counterpart"). Found through the request's task, as donations are: a report made outside
/// it (on a thread of its own, after the answer) has nowhere to go.
public enum INIntentProgress {
    @TaskLocal static var context: PluginContext?

    /// Reports `message`, with `fraction` (0…1) when the handler knows how far it is.
    /// Returns false when called outside a request's task, where nobody would see it.
    @discardableResult
    public static func report(_ message: String, fraction: Double? = nil) -> Bool {
        guard let context else {
            Logger(label: "Intents").warning("INIntentProgress.report(\"\(message)\") outside a request's task: nobody sees it")
            return false
        }
        context.progress(message, fraction: fraction.map { min(max($0, 0), 1) })
        return true
    }
}
