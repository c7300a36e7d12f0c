import Foundation
import IntentBusCore

/// An amount of money (SiriKit's `INCurrencyAmount`). On the wire it is the host's
/// CurrencyAmount value, `{"amount": 12.5, "currency": "EUR"}` (docs/definitions.md).
public final class INCurrencyAmount: INWireConvertible, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable after init.
    public let amount: NSDecimalNumber?
    /// The ISO 4217 code (`EUR`).
    public let currencyCode: String?

    public init(amount: NSDecimalNumber, currencyCode: String) {
        self.amount = amount
        self.currencyCode = currencyCode
    }

    public var description: String { "\(amount?.stringValue ?? "?") \(currencyCode ?? "?")" }

    public static func fromWire(_ value: JSON) -> INCurrencyAmount? {
        guard let amount = value["amount"]?.doubleValue, let code = value["currency"]?.stringValue else { return nil }
        // Through the shortest decimal text, so that 12.1 stays 12.1 and not 12.0999….
        return INCurrencyAmount(amount: NSDecimalNumber(string: "\(amount)"), currencyCode: code)
    }

    public var wireValue: JSON {
        var o: [String: JSON] = [:]
        if let amount { o["amount"] = .double(amount.doubleValue) }
        if let currencyCode { o["currency"] = .string(currencyCode) }
        return .object(o)
    }
}
