import Intents

/// Completions the `kept` mode holds on to and never calls: the timeout must answer.
nonisolated(unsafe) var keptCompletions: [Any] = []

/// Calls `completion` as `mode` says: `once` (on this thread), `thread` (from another
/// thread, later), `twice`, `released` (never: the closure goes away), `kept` (never:
/// the closure is kept), `held` (never: a HoldingHandler keeps it and goes away), `donate` (once, after donating an NSUserActivity), `interaction`
/// (once, from `INInteraction.donate`'s completion), `cart` (seed 004's activity),
/// `forget` (its deletion), `forget-group` and `forget-all` (INInteraction's); `async`
/// and `neither` go to AsyncHandler and NeitherHandler, `shortcuts` and `suggest` to
/// ShortcutsHandler, `open` to OpenHandler.
class CompletionHandler: INExtension, CompletionIntentHandling {
    override func handler(for intent: INIntent) -> Any {
        if intent is TypesIntent { return TypesHandler() }
        if intent is INSendMessageIntent { return MessageIntentHandler() }
        if intent is INStartWorkoutIntent { return WorkoutHandler() }
        if intent is INSearchForPhotosIntent { return PhotosHandler() }
        if intent is INRequestRideIntent { return RideHandler() }
        switch (intent as? CompletionIntent)?.mode {
        case "held": return HoldingHandler()
        case "async", "async-bad": return AsyncHandler()
        case "neither": return NeitherHandler()
        case "shortcuts", "suggest": return ShortcutsHandler()
        case "open": return OpenHandler()
        default: return self
        }
    }

    func resolveMode(for intent: CompletionIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        guard let mode = intent.mode else { return completion(.needsValue()) }
        let modes = ["once", "thread", "twice", "released", "kept", "held", "donate", "interaction", "neither", "cart", "forget", "forget-group", "forget-all",
                     "shortcuts", "suggest", "open"]
        completion(modes.contains(mode) ? .success(with: mode) : .unsupported())
    }

    func handle(intent: CompletionIntent, completion: @escaping (CompletionIntentResponse) -> Void) {
        switch intent.mode ?? "" {
        case "once":
            completion(.success(result: "einmal"))
        case "thread":
            nonisolated(unsafe) let answer = completion
            Thread.detachNewThread { answer(.success(result: "anderer Faden")) }
        case "twice":
            completion(.success(result: "eins"))
            completion(.success(result: "zwei"))
        case "kept":
            keptCompletions.append(completion)
        case "donate":
            let activity = NSUserActivity(activityType: "de.intentbus.completion")
            activity.title = "Completion prüfen"
            activity.isEligibleForPrediction = true
            activity.suggestedInvocationPhrase = "Prüf die Completion"
            activity.persistentIdentifier = "completion-once"
            activity.userInfo = ["mode": "once"]
            activity.becomeCurrent()
            completion(.success(result: "gespendet"))
        case "interaction":
            let interaction = INInteraction(intent: intent, response: nil)
            interaction.identifier = "completion-interaction"
            interaction.groupIdentifier = "completions"
            interaction.donate { error in
                completion(error == nil ? .success(result: "Interaktion gespendet") : CompletionIntentResponse(code: .failure, userActivity: nil))
            }
        case "cart":
            // Seed 004, step 4, without its view controller: the activity and its shortcut.
            let newArticleActivity = CartShortcut.newArticleShortcut(with: nil)
            let shortcut = INShortcut(userActivity: newArticleActivity)
            shortcut.userActivity?.becomeCurrent()
            completion(.success(result: "Warenkorb gespendet"))
        case "forget":
            NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: [kNewArticleActivityType]) {
                completion(.success(result: "vergessen"))
            }
        case "forget-group", "forget-all":
            let done: ((any Error)?) -> Void = { error in
                completion(error == nil ? .success(result: "vergessen") : CompletionIntentResponse(code: .failure, userActivity: nil))
            }
            if intent.mode == "forget-all" { INInteraction.deleteAll(completion: done) } else { INInteraction.delete(with: "completions", completion: done) }
        default:
            return
        }
    }
}
