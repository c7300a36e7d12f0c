import Foundation

/// The standard intent that books a ride (SiriKit's `INRequestRideIntent`); the host
/// knows its shape without a definition file (docs/definitions.md).
open class INRequestRideIntent: INIntent, @unchecked Sendable {
    // @unchecked: an intent is made for one phase and read by its handler only.
    public var pickupLocation: CLPlacemark? { parameterValues.object("pickupLocation", as: CLPlacemark.self) }
    public var dropOffLocation: CLPlacemark? { parameterValues.object("dropOffLocation", as: CLPlacemark.self) }
    public var rideOptionName: INSpeakableString? { parameterValues.object("rideOptionName", as: INSpeakableString.self) }
    public var partySize: NSNumber? { parameterValues.number("partySize") }
    public var paymentMethod: INPaymentMethod? { parameterValues.object("paymentMethod", as: INPaymentMethod.self) }
    public var scheduledPickupTime: INDateComponentsRange? {
        parameterValues.object("scheduledPickupTime", as: INDateComponentsRange.self)
    }

    public required init() {}

    /// Apple's initializer.
    public convenience init(pickupLocation: CLPlacemark?, dropOffLocation: CLPlacemark?, rideOptionName: INSpeakableString?,
                            partySize: NSNumber?, paymentMethod: INPaymentMethod?, scheduledPickupTime: INDateComponentsRange?) {
        self.init()
        parameterValues.set(pickupLocation, "pickupLocation")
        parameterValues.set(dropOffLocation, "dropOffLocation")
        parameterValues.set(rideOptionName, "rideOptionName")
        parameterValues.set(partySize, "partySize")
        parameterValues.set(paymentMethod, "paymentMethod")
        parameterValues.set(scheduledPickupTime, "scheduledPickupTime")
    }
}
