import Foundation

/// Where a workout takes place (SiriKit's `INWorkoutLocationType`, Apple's raw values).
public enum INWorkoutLocationType: Int, CaseIterable, Sendable {
    case unknown = 0
    case outdoor = 1
    case indoor = 2

    /// The case the host sent by name; `unknown` for none.
    init(intentBusName: String?) { self = Self.allCases.first { String(describing: $0) == intentBusName } ?? .unknown }
    /// The name the host knows the case by; nil for `unknown`.
    var intentBusName: String? { self == .unknown ? nil : String(describing: self) }
}
