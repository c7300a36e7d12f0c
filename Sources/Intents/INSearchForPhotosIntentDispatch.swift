import Foundation

/// How `INExtensionRuntime` calls an `INSearchForPhotosIntentHandling` (see `INSendMessageIntentDispatch`).
enum INSearchForPhotosIntentDispatch: INIntentDispatching {
    static var intentName: String { "INSearchForPhotosIntent" }

    static func makeIntent(_ values: INValueStore) -> INIntent {
        let intent = INSearchForPhotosIntent()
        intent.parameterValues = values
        return intent
    }

    static func isHandler(_ handler: Any) -> Bool { handler is any INSearchForPhotosIntentHandling }

    static func handle(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INSearchForPhotosIntentHandling, let intent = intent as? INSearchForPhotosIntent else { return }
        handler.handle(intent: intent, completion: { completion($0) })
    }

    static func confirm(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INSearchForPhotosIntentHandling, let intent = intent as? INSearchForPhotosIntent else { return }
        handler.confirm(intent: intent, completion: { completion($0) })
    }

    static func resolve(_ handler: Any, _ parameter: String, _ intent: INIntent,
                        completion: @escaping (INIntentResolutionResult) -> Void) -> Bool {
        guard let handler = handler as? any INSearchForPhotosIntentHandling, let intent = intent as? INSearchForPhotosIntent else { return true }
        switch parameter {
        case "dateCreated": handler.resolveDateCreated(for: intent) { completion($0) }
        case "locationCreated": handler.resolveLocationCreated(for: intent) { completion($0) }
        case "albumName": handler.resolveAlbumName(for: intent) { completion($0) }
        case "searchTerms": handler.resolveSearchTerms(for: intent) { completion(INIntentResolutionResult.items($0)) }
        case "peopleInPhoto": handler.resolvePeopleInPhoto(for: intent) { completion(INIntentResolutionResult.items($0)) }
        default: return false
        }
        return true
    }
}
