import Foundation
import IntentBusCore

/// A person (SiriKit's `INPerson`): a recipient, a contact, someone in a photo. On the
/// wire it is a Person value (docs/definitions.md): the name the user said, or an object
/// with `displayName`, `handle`, `handleType` and `identifier` (the `customIdentifier`).
///
/// Apple's `INPerson` is not an `INObject`; this one is, so that the resolution results
/// and lists every custom type has serve it too. `nameComponents` and `image` stay in
/// the plugin: the host never sees them.
open class INPerson: INObject, @unchecked Sendable {
    // @unchecked: like SiriKit's, a person is built and read by one handler at a time.
    public var nameComponents: PersonNameComponents?
    public var image: INImage?

    /// Apple's initializer: `customIdentifier` is the person's identifier on the bus.
    public convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?,
                            image: INImage?, contactIdentifier: String?, customIdentifier: String?) {
        // Foundation on Linux has no PersonNameComponentsFormatter: given and family name, in that order.
        let components = [nameComponents?.givenName, nameComponents?.familyName].compactMap { $0 }.joined(separator: " ")
        let name = displayName ?? (components.isEmpty ? nil : components) ?? personHandle.value ?? ""
        self.init(identifier: customIdentifier, display: name)
        self.nameComponents = nameComponents
        self.image = image
        properties.set(displayName ?? name, "displayName")
        properties.set(personHandle.value, "handle")
        properties.set(personHandle.type == .unknown ? nil : String(describing: personHandle.type), "handleType")
        properties.set(contactIdentifier, "contactIdentifier")
    }

    /// The name to show and say.
    public var displayName: String { properties.string("displayName") ?? displayString }
    /// The phone number or e-mail address, when the person has one.
    public var personHandle: INPersonHandle? {
        guard let value = properties.string("handle") else { return nil }
        return INPersonHandle(value: value, type: INPersonHandleType(wireName: properties.string("handleType")))
    }
    public var contactIdentifier: String? { properties.string("contactIdentifier") }
    public var customIdentifier: String? { identifier }

    /// A name the user said is a person with that display name and no identifier yet:
    /// the handler's `resolveRecipients` looks it up.
    open override class func fromWire(_ value: JSON) -> Self? {
        if let text = value.stringValue {
            let person = Self(identifier: nil, display: text)
            person.properties.set(text, "displayName")
            return person
        }
        guard let person = super.fromWire(value) else { return nil }
        if person.displayString.isEmpty { person.displayString = person.displayName }
        return person
    }
}
