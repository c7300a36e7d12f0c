import Intents

/// INSearchForPhotosIntent: the result count is made of what the handler read, so that a
/// suite sees each typed property: 1000 × the day of the month + 100 × the included
/// attributes + 10 × the people + 1 for a place with a coordinate, minus the excluded.
final class PhotosHandler: INSearchForPhotosIntentHandling {
    func handle(intent: INSearchForPhotosIntent, completion: @escaping (INSearchForPhotosIntentResponse) -> Void) {
        let day = intent.dateCreated?.startDateComponents?.day ?? 0
        let included = [INPhotoAttributeOptions.selfie, .favorite, .video].filter { intent.includedAttributes.contains($0) }.count
        let excluded = intent.excludedAttributes.contains(.screenshot) ? 1 : 0
        let people = intent.peopleInPhoto?.count ?? 0
        let place = intent.locationCreated?.location == nil ? 0 : 1
        let response = INSearchForPhotosIntentResponse(code: .continueInApp, userActivity: nil)
        response.searchResultsCount = NSNumber(value: 1000 * day + 100 * included + 10 * people + place - excluded)
        completion(response)
    }
}
