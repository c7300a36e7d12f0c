import Foundation
import IntentBusCore

/// A place (CoreLocation's `CLPlacemark`, which SiriKit's Placemark parameters are).
/// Linux has no CoreLocation: this stand-in carries what the host's Placemark value has
/// (docs/definitions.md): a name or an address the user said, and a coordinate the host
/// has range-checked. Handler code that reads `placemark.name` and
/// `placemark.location?.coordinate` compiles unchanged; without `import CoreLocation`.
open class CLPlacemark: INWireConvertible, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: built and read by one handler at a time.
    public let name: String?
    public let location: CLLocation?

    /// SiriKit's way to make one (`CLPlacemark(location:name:postalAddress:)`); the postal
    /// address has no counterpart here.
    public required init(location: CLLocation?, name: String?) {
        self.location = location
        self.name = name
    }

    public var description: String {
        let at = location.map { " (\($0.coordinate.latitude), \($0.coordinate.longitude))" } ?? ""
        return "\(name ?? "?")\(at)"
    }

    /// An address the user said is a placemark with that name and no location yet.
    public static func fromWire(_ value: JSON) -> Self? {
        if let text = value.stringValue { return Self(location: nil, name: text) }
        // The standard intents' Placemark is a custom object: its display string names it.
        let name = value["name"]?.stringValue ?? value["displayString"]?.stringValue
        var location: CLLocation?
        if let latitude = value["latitude"]?.doubleValue, let longitude = value["longitude"]?.doubleValue {
            location = CLLocation(latitude: latitude, longitude: longitude)
        }
        guard name != nil || location != nil else { return nil }
        return Self(location: location, name: name)
    }

    /// The host's Placemark value, which is also the standard intents' Placemark object
    /// (it needs an identifier and a display string: the name, or the coordinate).
    public var wireValue: JSON {
        var o: [String: JSON] = [:]
        if let name { o["name"] = .string(name) }
        if let location {
            o["latitude"] = .double(location.coordinate.latitude)
            o["longitude"] = .double(location.coordinate.longitude)
        }
        let shown = name ?? location.map { "\($0.coordinate.latitude), \($0.coordinate.longitude)" } ?? ""
        o["identifier"] = .string(shown)
        o["displayString"] = .string(shown)
        return .object(o)
    }
}
