import Foundation

/// What handles `INRequestRideIntent` (SiriKit's `INRequestRideIntentHandling`), as `INSendMessageIntentHandling`:
/// `handle` required, the rest with defaults, each method in both forms.
public protocol INRequestRideIntentHandling: AnyObject {
    func handle(intent: INRequestRideIntent, completion: @escaping (INRequestRideIntentResponse) -> Void)
    func handle(intent: INRequestRideIntent) async -> INRequestRideIntentResponse
    func confirm(intent: INRequestRideIntent, completion: @escaping (INRequestRideIntentResponse) -> Void)
    func confirm(intent: INRequestRideIntent) async -> INRequestRideIntentResponse
    func resolvePickupLocation(for intent: INRequestRideIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void)
    func resolvePickupLocation(for intent: INRequestRideIntent) async -> INPlacemarkResolutionResult
    func resolveDropOffLocation(for intent: INRequestRideIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void)
    func resolveDropOffLocation(for intent: INRequestRideIntent) async -> INPlacemarkResolutionResult
    func resolveRideOptionName(for intent: INRequestRideIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void)
    func resolveRideOptionName(for intent: INRequestRideIntent) async -> INSpeakableStringResolutionResult
    func resolvePartySize(for intent: INRequestRideIntent, with completion: @escaping (INIntegerResolutionResult) -> Void)
    func resolvePartySize(for intent: INRequestRideIntent) async -> INIntegerResolutionResult
    func resolvePaymentMethod(for intent: INRequestRideIntent, with completion: @escaping (INPaymentMethodResolutionResult) -> Void)
    func resolvePaymentMethod(for intent: INRequestRideIntent) async -> INPaymentMethodResolutionResult
    func resolveScheduledPickupTime(for intent: INRequestRideIntent, with completion: @escaping (INDateComponentsRangeResolutionResult) -> Void)
    func resolveScheduledPickupTime(for intent: INRequestRideIntent) async -> INDateComponentsRangeResolutionResult
}

extension INRequestRideIntentHandling {
    public func handle(intent: INRequestRideIntent, completion: @escaping (INRequestRideIntentResponse) -> Void) {
        INAsyncForm.run({ await self.handle(intent: intent) }, completion)
    }

    public func handle(intent: INRequestRideIntent) async -> INRequestRideIntentResponse {
        INAsyncForm.neither("handle(intent:) of INRequestRideIntentHandling")
        return INRequestRideIntentResponse(code: .unspecified, userActivity: nil)
    }

    public func confirm(intent: INRequestRideIntent, completion: @escaping (INRequestRideIntentResponse) -> Void) {
        INAsyncForm.run({ await self.confirm(intent: intent) }, completion)
    }

    public func confirm(intent: INRequestRideIntent) async -> INRequestRideIntentResponse { INRequestRideIntentResponse(code: .ready, userActivity: nil) }

    public func resolvePickupLocation(for intent: INRequestRideIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolvePickupLocation(for: intent) }, completion)
    }

    public func resolvePickupLocation(for intent: INRequestRideIntent) async -> INPlacemarkResolutionResult { .passThrough(intent, "pickupLocation") }

    public func resolveDropOffLocation(for intent: INRequestRideIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveDropOffLocation(for: intent) }, completion)
    }

    public func resolveDropOffLocation(for intent: INRequestRideIntent) async -> INPlacemarkResolutionResult { .passThrough(intent, "dropOffLocation") }

    public func resolveRideOptionName(for intent: INRequestRideIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveRideOptionName(for: intent) }, completion)
    }

    public func resolveRideOptionName(for intent: INRequestRideIntent) async -> INSpeakableStringResolutionResult { .passThrough(intent, "rideOptionName") }

    public func resolvePartySize(for intent: INRequestRideIntent, with completion: @escaping (INIntegerResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolvePartySize(for: intent) }, completion)
    }

    public func resolvePartySize(for intent: INRequestRideIntent) async -> INIntegerResolutionResult { .passThrough(intent, "partySize") }

    public func resolvePaymentMethod(for intent: INRequestRideIntent, with completion: @escaping (INPaymentMethodResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolvePaymentMethod(for: intent) }, completion)
    }

    public func resolvePaymentMethod(for intent: INRequestRideIntent) async -> INPaymentMethodResolutionResult { .passThrough(intent, "paymentMethod") }

    public func resolveScheduledPickupTime(for intent: INRequestRideIntent, with completion: @escaping (INDateComponentsRangeResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveScheduledPickupTime(for: intent) }, completion)
    }

    public func resolveScheduledPickupTime(for intent: INRequestRideIntent) async -> INDateComponentsRangeResolutionResult { .passThrough(intent, "scheduledPickupTime") }
}
