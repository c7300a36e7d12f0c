import Foundation

/// A payment method's result (SiriKit's `INPaymentMethodResolutionResult`).
open class INPaymentMethodResolutionResult: INObjectResolutionResult, @unchecked Sendable {
    public class func success(with resolvedPaymentMethod: INPaymentMethod) -> Self { super.success(with: resolvedPaymentMethod as INObject) }
    public class func confirmationRequired(with paymentMethodToConfirm: INPaymentMethod?) -> Self {
        super.confirmationRequired(with: paymentMethodToConfirm as INObject?)
    }
    public class func disambiguation(with paymentMethodsToDisambiguate: [INPaymentMethod]) -> Self {
        super.disambiguation(with: paymentMethodsToDisambiguate as [INObject])
    }
}
