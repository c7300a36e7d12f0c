import Foundation
import IntentBusCore

/// The values of an intent's parameters, a response's parameters or a custom object's
/// properties, kept in their wire form (docs/definitions.md, "Values on the wire"), so
/// that what the host sent goes back unchanged. The generated classes' typed properties
/// read and write through it.
public struct INValueStore: Sendable {
    /// The values by name; absent means no value.
    public var values: [String: JSON]

    public init(_ values: [String: JSON] = [:]) { self.values = values.filter { !$0.value.isNull } }

    /// A String (or a custom object's display string).
    public func string(_ name: String) -> String? {
        guard let value = values[name] else { return nil }
        return value.stringValue ?? value["displayString"]?.stringValue ?? value["identifier"]?.stringValue
    }

    /// An Integer, Decimal or Boolean, as Xcode's generated classes hold them (`NSNumber`).
    public func number(_ name: String) -> NSNumber? {
        guard let value = values[name] else { return nil }
        if let b = value.boolValue { return NSNumber(value: b) }
        if let i = value.intValue { return NSNumber(value: i) }
        return value.doubleValue.map { NSNumber(value: $0) }
    }

    /// A Date parameter: the host sends ISO 8601 text.
    public func dateComponents(_ name: String) -> DateComponents? {
        guard let text = values[name]?.stringValue else { return nil }
        // A date alone ("2024-05-01") is a day, with no time or zone, as SiriKit gives it.
        let day = text.split(separator: "-").compactMap { Int($0) }
        if text.count == 10, day.count == 3 { return DateComponents(year: day[0], month: day[1], day: day[2]) }
        guard let date = ISO8601DateFormatter().date(from: text) else { return nil }
        let calendar = Calendar(identifier: .gregorian)
        return calendar.dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: date)
    }

    /// A URL parameter.
    public func url(_ name: String) -> URL? { values[name]?.stringValue.flatMap { URL(string: $0) } }

    /// A custom-type parameter as its generated class, or a Person, CurrencyAmount,
    /// Placemark or File parameter as its value class.
    public func object<T: INWireConvertible>(_ name: String, as type: T.Type = T.self) -> T? {
        values[name].flatMap { T.fromWire($0) }
    }

    /// A list parameter of such values (a single value is a list of one).
    public func objects<T: INWireConvertible>(_ name: String, as type: T.Type = T.self) -> [T]? {
        guard let value = values[name] else { return nil }
        return (value.arrayValue ?? [value]).compactMap { T.fromWire($0) }
    }

    /// A list parameter of strings.
    public func strings(_ name: String) -> [String]? {
        guard let value = values[name] else { return nil }
        return (value.arrayValue ?? [value]).compactMap(\.stringValue)
    }

    public mutating func set(_ value: String?, _ name: String) { values[name] = value.map { .string($0) } }
    public mutating func set(_ value: [String]?, _ name: String) { values[name] = value.map { .array($0.map { .string($0) }) } }
    public mutating func set(_ value: URL?, _ name: String) { values[name] = value.map { .string($0.absoluteString) } }
    public mutating func set<T: INWireConvertible>(_ value: T?, _ name: String) { values[name] = value?.wireValue }
    public mutating func set<T: INWireConvertible>(_ value: [T]?, _ name: String) { values[name] = value.map { .array($0.map(\.wireValue)) } }

    public mutating func set(_ value: NSNumber?, _ name: String) {
        guard let value else { values[name] = nil; return }
        // NSNumber does not say on Linux whether it holds a Bool; the generated property
        // knows its type, but an integral value written as an integer reads back alike.
        if value.doubleValue.rounded() == value.doubleValue, abs(value.doubleValue) < 9e15 {
            values[name] = .int(value.int64Value)
        } else {
            values[name] = .double(value.doubleValue)
        }
    }

    public mutating func set(_ value: DateComponents?, _ name: String) {
        guard let value, let date = Calendar(identifier: .gregorian).date(from: value) else { values[name] = nil; return }
        values[name] = .string(ISO8601DateFormatter().string(from: date))
    }
}

extension INValueStore {
    /// A Boolean parameter's value (an `NSNumber` in the generated class), sent as true/false.
    public mutating func set(boolean value: NSNumber?, _ name: String) { values[name] = value.map { .bool($0.boolValue) } }
}
