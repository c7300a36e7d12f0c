import Foundation

/// Degrees of latitude or longitude, as CoreLocation names them.
public typealias CLLocationDegrees = Double

/// A point on the earth (CoreLocation's `CLLocationCoordinate2D`).
public struct CLLocationCoordinate2D: Sendable, Equatable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A placemark's position (CoreLocation's `CLLocation`, its coordinate only). Linux has
/// no CoreLocation; the Intents module stands in with what a placemark carries on the bus.
public final class CLLocation: @unchecked Sendable {
    // @unchecked: immutable after init.
    public let coordinate: CLLocationCoordinate2D

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }
}
