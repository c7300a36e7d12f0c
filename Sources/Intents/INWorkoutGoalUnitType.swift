import Foundation

/// What a workout's goal counts in (SiriKit's `INWorkoutGoalUnitType`, Apple's raw values).
public enum INWorkoutGoalUnitType: Int, CaseIterable, Sendable {
    case unknown = 0
    case inch = 1
    case meter = 2
    case foot = 3
    case mile = 4
    case yard = 5
    case second = 6
    case minute = 7
    case hour = 8
    case joule = 9
    case kiloCalorie = 10

    /// The case the host sent by name; `unknown` for none.
    init(intentBusName: String?) { self = Self.allCases.first { String(describing: $0) == intentBusName } ?? .unknown }
    /// The name the host knows the case by; nil for `unknown`.
    var intentBusName: String? { self == .unknown ? nil : String(describing: self) }
}
