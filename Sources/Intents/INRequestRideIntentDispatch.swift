import Foundation

/// How `INExtensionRuntime` calls an `INRequestRideIntentHandling` (see `INSendMessageIntentDispatch`).
enum INRequestRideIntentDispatch: INIntentDispatching {
    static var intentName: String { "INRequestRideIntent" }

    static func makeIntent(_ values: INValueStore) -> INIntent {
        let intent = INRequestRideIntent()
        intent.parameterValues = values
        return intent
    }

    static func isHandler(_ handler: Any) -> Bool { handler is any INRequestRideIntentHandling }

    static func handle(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INRequestRideIntentHandling, let intent = intent as? INRequestRideIntent else { return }
        handler.handle(intent: intent, completion: { completion($0) })
    }

    static func confirm(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INRequestRideIntentHandling, let intent = intent as? INRequestRideIntent else { return }
        handler.confirm(intent: intent, completion: { completion($0) })
    }

    static func resolve(_ handler: Any, _ parameter: String, _ intent: INIntent,
                        completion: @escaping (INIntentResolutionResult) -> Void) -> Bool {
        guard let handler = handler as? any INRequestRideIntentHandling, let intent = intent as? INRequestRideIntent else { return true }
        switch parameter {
        case "pickupLocation": handler.resolvePickupLocation(for: intent) { completion($0) }
        case "dropOffLocation": handler.resolveDropOffLocation(for: intent) { completion($0) }
        case "rideOptionName": handler.resolveRideOptionName(for: intent) { completion($0) }
        case "partySize": handler.resolvePartySize(for: intent) { completion($0) }
        case "paymentMethod": handler.resolvePaymentMethod(for: intent) { completion($0) }
        case "scheduledPickupTime": handler.resolveScheduledPickupTime(for: intent) { completion($0) }
        default: return false
        }
        return true
    }
}
