import Foundation
import IntentBusCore
import IntentBusPlugin

/// `inRange` beyond a plain number: an optional number (App Intents allows
/// `@Parameter(inRange:) var minutes: Int?`) and a list whose every item is in range. The
/// host checks the range of a value that is given; an optional one may stay absent.
///
/// Dates have no range: a bound on a date needs the user's time zone and "now", which the
/// host does not have (docs/migration.md, "Ranges on dates"); check dates in `perform()`.
extension Parameter {
    /// An optional number with an inclusive range:
    /// `@Parameter(title: "Break", inRange: 1...30) var breakMinutes: Int?`.
    public convenience init<N: IntentNumber>(title: String, description: String? = nil, default defaultValue: Value? = nil,
                                             inRange range: ClosedRange<N>, requestValueDialog: String? = nil) where Value == N? {
        self.init(title: title, description: description, default: defaultValue,
                  range: (range.lowerBound.intentJSON, range.upperBound.intentJSON), requestValueDialog: requestValueDialog)
    }

    /// A list of numbers whose every item lies in an inclusive range:
    /// `@Parameter(title: "Ratings", inRange: 1...5) var ratings: [Int]`.
    public convenience init<N: IntentNumber>(title: String, description: String? = nil, default defaultValue: Value? = nil,
                                             inRange range: ClosedRange<N>, requestValueDialog: String? = nil) where Value == [N] {
        self.init(title: title, description: description, default: defaultValue,
                  range: (range.lowerBound.intentJSON, range.upperBound.intentJSON), requestValueDialog: requestValueDialog)
    }

    /// An optional list of numbers whose every item lies in an inclusive range.
    public convenience init<N: IntentNumber>(title: String, description: String? = nil, default defaultValue: Value? = nil,
                                             inRange range: ClosedRange<N>, requestValueDialog: String? = nil) where Value == [N]? {
        self.init(title: title, description: description, default: defaultValue,
                  range: (range.lowerBound.intentJSON, range.upperBound.intentJSON), requestValueDialog: requestValueDialog)
    }
}
