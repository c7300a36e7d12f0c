import Foundation
import IntentBusCore

/// How a ride is paid (SiriKit's `INPaymentMethod`): on the wire the standard intents'
/// PaymentMethod object (`name`, `identificationHint`), or the name the user said. An
/// `INObject` here, like `INPerson`, for lists and disambiguation.
open class INPaymentMethod: INObject, @unchecked Sendable {
    // @unchecked: built and read by one handler at a time.
    public var type: INPaymentMethodType = .unknown
    public var icon: INImage?

    public convenience init(type: INPaymentMethodType, name: String?, identificationHint: String?, icon: INImage?) {
        self.init(identifier: name, display: name ?? identificationHint ?? "")
        self.type = type
        self.icon = icon
        properties.set(name, "name")
        properties.set(identificationHint, "identificationHint")
    }

    public var name: String? { properties.string("name") ?? displayString }
    public var identificationHint: String? { properties.string("identificationHint") }
}
