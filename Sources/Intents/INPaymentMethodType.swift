import Foundation

/// What kind of payment method (SiriKit's `INPaymentMethodType`, Apple's raw values). The
/// host's PaymentMethod has no such property: it stays in the plugin.
public enum INPaymentMethodType: Int, Sendable {
    case unknown = 0
    case checking
    case savings
    case brokerage
    case debit
    case credit
    case prepaid
    case store
    case applePay
}
