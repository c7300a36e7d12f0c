import Foundation

/// What handles `INSearchForPhotosIntent` (SiriKit's `INSearchForPhotosIntentHandling`), as `INSendMessageIntentHandling`:
/// `handle` required, the rest with defaults, each method in both forms. The attribute
/// options have no resolve method, as in Apple's.
public protocol INSearchForPhotosIntentHandling: AnyObject {
    func handle(intent: INSearchForPhotosIntent, completion: @escaping (INSearchForPhotosIntentResponse) -> Void)
    func handle(intent: INSearchForPhotosIntent) async -> INSearchForPhotosIntentResponse
    func confirm(intent: INSearchForPhotosIntent, completion: @escaping (INSearchForPhotosIntentResponse) -> Void)
    func confirm(intent: INSearchForPhotosIntent) async -> INSearchForPhotosIntentResponse
    func resolveDateCreated(for intent: INSearchForPhotosIntent, with completion: @escaping (INDateComponentsRangeResolutionResult) -> Void)
    func resolveDateCreated(for intent: INSearchForPhotosIntent) async -> INDateComponentsRangeResolutionResult
    func resolveLocationCreated(for intent: INSearchForPhotosIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void)
    func resolveLocationCreated(for intent: INSearchForPhotosIntent) async -> INPlacemarkResolutionResult
    func resolveAlbumName(for intent: INSearchForPhotosIntent, with completion: @escaping (INStringResolutionResult) -> Void)
    func resolveAlbumName(for intent: INSearchForPhotosIntent) async -> INStringResolutionResult
    func resolveSearchTerms(for intent: INSearchForPhotosIntent, with completion: @escaping ([INStringResolutionResult]) -> Void)
    func resolveSearchTerms(for intent: INSearchForPhotosIntent) async -> [INStringResolutionResult]
    func resolvePeopleInPhoto(for intent: INSearchForPhotosIntent, with completion: @escaping ([INPersonResolutionResult]) -> Void)
    func resolvePeopleInPhoto(for intent: INSearchForPhotosIntent) async -> [INPersonResolutionResult]
}

extension INSearchForPhotosIntentHandling {
    public func handle(intent: INSearchForPhotosIntent, completion: @escaping (INSearchForPhotosIntentResponse) -> Void) {
        INAsyncForm.run({ await self.handle(intent: intent) }, completion)
    }

    public func handle(intent: INSearchForPhotosIntent) async -> INSearchForPhotosIntentResponse {
        INAsyncForm.neither("handle(intent:) of INSearchForPhotosIntentHandling")
        return INSearchForPhotosIntentResponse(code: .unspecified, userActivity: nil)
    }

    public func confirm(intent: INSearchForPhotosIntent, completion: @escaping (INSearchForPhotosIntentResponse) -> Void) {
        INAsyncForm.run({ await self.confirm(intent: intent) }, completion)
    }

    public func confirm(intent: INSearchForPhotosIntent) async -> INSearchForPhotosIntentResponse { INSearchForPhotosIntentResponse(code: .ready, userActivity: nil) }

    public func resolveDateCreated(for intent: INSearchForPhotosIntent, with completion: @escaping (INDateComponentsRangeResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveDateCreated(for: intent) }, completion)
    }

    public func resolveDateCreated(for intent: INSearchForPhotosIntent) async -> INDateComponentsRangeResolutionResult { .passThrough(intent, "dateCreated") }

    public func resolveLocationCreated(for intent: INSearchForPhotosIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveLocationCreated(for: intent) }, completion)
    }

    public func resolveLocationCreated(for intent: INSearchForPhotosIntent) async -> INPlacemarkResolutionResult { .passThrough(intent, "locationCreated") }

    public func resolveAlbumName(for intent: INSearchForPhotosIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveAlbumName(for: intent) }, completion)
    }

    public func resolveAlbumName(for intent: INSearchForPhotosIntent) async -> INStringResolutionResult { .passThrough(intent, "albumName") }

    public func resolveSearchTerms(for intent: INSearchForPhotosIntent, with completion: @escaping ([INStringResolutionResult]) -> Void) {
        INAsyncForm.run({ await self.resolveSearchTerms(for: intent) }, completion)
    }

    public func resolveSearchTerms(for intent: INSearchForPhotosIntent) async -> [INStringResolutionResult] { INIntentResolutionResult.passThroughItems(INStringResolutionResult.self, intent, "searchTerms") }

    public func resolvePeopleInPhoto(for intent: INSearchForPhotosIntent, with completion: @escaping ([INPersonResolutionResult]) -> Void) {
        INAsyncForm.run({ await self.resolvePeopleInPhoto(for: intent) }, completion)
    }

    public func resolvePeopleInPhoto(for intent: INSearchForPhotosIntent) async -> [INPersonResolutionResult] { INIntentResolutionResult.passThroughItems(INPersonResolutionResult.self, intent, "peopleInPhoto") }
}
