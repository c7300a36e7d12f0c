import Foundation
import IntentBusCore
import IntentBusLegacy

/// A CurrencyAmount parameter's result (SiriKit's `INCurrencyAmountResolutionResult`).
open class INCurrencyAmountResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedCurrencyAmount: INCurrencyAmount) -> Self { Self(result: .success(resolvedCurrencyAmount.wireValue)) }
    public class func confirmationRequired(with currencyAmountToConfirm: INCurrencyAmount?) -> Self {
        Self(result: .confirmationRequired(currencyAmountToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with currencyAmountsToDisambiguate: [INCurrencyAmount]) -> Self {
        Self(result: .disambiguation(INWireResolutionOptions.options(currencyAmountsToDisambiguate)))
    }
}
