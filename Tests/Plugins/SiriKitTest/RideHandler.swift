import Intents

/// INRequestRideIntent: addresses are looked up (the station has a coordinate), the
/// payment method is resolved by name, and the success dialog's pickup time names what
/// the handler read.
final class RideHandler: INRequestRideIntentHandling {
    func resolvePickupLocation(for intent: INRequestRideIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void) {
        guard let place = intent.pickupLocation else { return completion(.needsValue()) }
        completion(place.name == "Hauptbahnhof"
                   ? .success(with: CLPlacemark(location: CLLocation(latitude: 52.525, longitude: 13.369), name: "Berlin Hauptbahnhof"))
                   : .success(with: place))
    }

    func resolvePaymentMethod(for intent: INRequestRideIntent) async -> INPaymentMethodResolutionResult {
        guard let method = intent.paymentMethod else { return .notRequired() }
        return .success(with: INPaymentMethod(type: .credit, name: method.name, identificationHint: "•••• 4242", icon: nil))
    }

    func handle(intent: INRequestRideIntent, completion: @escaping (INRequestRideIntentResponse) -> Void) {
        let pickup = intent.pickupLocation
        let at = pickup?.location.map { "(\($0.coordinate.latitude))" } ?? "(?)"
        let time = intent.scheduledPickupTime?.startDateComponents.map { "\($0.hour ?? -1):\($0.minute ?? -1)" } ?? "now"
        let response = INRequestRideIntentResponse(code: .success, userActivity: nil)
        response.rideIdentifier = "ride-1"
        response.estimatedPickupTime = "\(pickup?.name ?? "?") \(at) → \(intent.dropOffLocation?.name ?? "?"), \(intent.partySize?.intValue ?? 0) people, \(intent.paymentMethod?.name ?? "-") \(intent.paymentMethod?.identificationHint ?? ""), \(time)"
        completion(response)
    }
}
