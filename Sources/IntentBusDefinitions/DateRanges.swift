import Foundation

/// Why dates have no `minimum`/`maximum` (legacy) or `min`/`max` (new style), said where
/// a range on a date is refused and in docs/migration.md "Ranges on dates".
enum DateRanges {
    /// Appended to the refusal of a range on a Date parameter.
    static let why = " (a bound on a date needs the user's time zone and today's date, which the host does not have; check dates in the handler)"
}
