import Foundation
import IntentBusCore

/// A custom type's value (SiriKit's `INObject`): an identifier, what is shown and said,
/// and the type's own properties, which the generated subclass (`class Contract: INObject`)
/// reads and writes through `properties`.
open class INObject: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: like SiriKit's objects, one is built and read by one handler at a time.
    public var identifier: String?
    public var displayString: String
    public var pronunciationHint: String?
    public var alternativeSpeakableMatches: [String]?
    /// The custom type's own properties, by name.
    public var properties = INValueStore()

    public required init(identifier: String?, display displayString: String, pronunciationHint: String? = nil) {
        self.identifier = identifier
        self.displayString = displayString
        self.pronunciationHint = pronunciationHint
    }

    public var description: String { "\(Self.self)(\(identifier ?? "nil"), \(displayString))" }

    /// The wire form: `{"identifier": …, "displayString": …, <properties>}`.
    public var wireValue: JSON {
        var o = properties.values
        o["identifier"] = identifier.map { .string($0) }
        o["displayString"] = .string(displayString)
        o["pronunciationHint"] = pronunciationHint.map { .string($0) }
        return .object(o)
    }

    /// An object from its wire form; a bare string (what the user said) becomes an object
    /// with that identifier and display string, which the handler's resolve then looks up.
    public class func fromWire(_ value: JSON) -> Self? {
        if let text = value.stringValue { return Self(identifier: text, display: text) }
        guard var o = value.objectValue else { return nil }
        let identifier = o.removeValue(forKey: "identifier")?.stringValue
        let display = o.removeValue(forKey: "displayString")?.stringValue ?? identifier ?? ""
        let hint = o.removeValue(forKey: "pronunciationHint")?.stringValue
        let object = Self(identifier: identifier, display: display, pronunciationHint: hint)
        object.properties = INValueStore(o)
        return object
    }
}
