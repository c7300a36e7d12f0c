import Foundation
import IntentBusCore

/// A value class that travels as one wire value (docs/definitions.md, "Values on the
/// wire"): custom objects, `INPerson`, `INCurrencyAmount`, `CLPlacemark`, `INFile`,
/// `INSpeakableString`. `INValueStore` reads and writes any of them alike.
public protocol INWireConvertible {
    /// The value from its wire form, or nil for one that is not of this type.
    static func fromWire(_ value: JSON) -> Self?
    /// The wire form the host reads back.
    var wireValue: JSON { get }
}

extension INObject: INWireConvertible {}
