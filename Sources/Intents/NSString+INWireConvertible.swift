import Foundation
import IntentBusCore

/// A String parameter's dynamic options are `INObjectCollection<NSString>`, as Xcode
/// generates them (`provideFlavourOptionsCollection(for:with:)`): each string is its
/// own title and id, and travels as a String value.
extension NSString: INWireConvertible {
    public static func fromWire(_ value: JSON) -> Self? { value.stringValue.map { Self(string: $0) } }
    public var wireValue: JSON { .string(String(self)) }
}
