import Foundation
import IntentBusCore

/// A span of dates (SiriKit's `INDateComponentsRange`). The host's standard intents have
/// no date ranges (docs/migration.md, "Ranges on dates"): their Date parameters are one
/// day or instant, which arrives as a range that starts and ends there.
public final class INDateComponentsRange: INWireConvertible, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable after init.
    public let startDateComponents: DateComponents?
    public let endDateComponents: DateComponents?

    public init(start startDateComponents: DateComponents?, end endDateComponents: DateComponents?) {
        self.startDateComponents = startDateComponents
        self.endDateComponents = endDateComponents
    }

    public var description: String { "\(startDateComponents.map(String.init(describing:)) ?? "…") – \(endDateComponents.map(String.init(describing:)) ?? "…")" }

    /// The host's Date value: ISO 8601 text, read as `INValueStore` reads a Date.
    public static func fromWire(_ value: JSON) -> INDateComponentsRange? {
        guard let day = INValueStore(["date": value]).dateComponents("date") else { return nil }
        return INDateComponentsRange(start: day, end: day)
    }

    /// The start, as the host's one Date (the end has no place on the wire).
    public var wireValue: JSON {
        var store = INValueStore()
        store.set(startDateComponents ?? endDateComponents, "date")
        return store.values["date"] ?? .null
    }
}
