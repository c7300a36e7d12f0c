import Foundation
import IntentBusCore
import IntentBusLegacy

/// What resolving one parameter concluded (SiriKit's `INIntentResolutionResult`): the
/// results every type shares. Each typed subclass adds `success(with:)`,
/// `confirmationRequired(with:)` and `disambiguation(with:)`; all map onto the legacy
/// layer's `ResolutionResult`, which the host acts on.
open class INIntentResolutionResult: @unchecked Sendable {
    // @unchecked: immutable after init.
    /// The result as the legacy layer sends it.
    public let result: ResolutionResult

    public required init(result: ResolutionResult) { self.result = result }

    /// Ask the user for a value (the parameter's Primary dialog).
    public class func needsValue() -> Self { Self(result: .needsValue) }
    /// The parameter is not needed.
    public class func notRequired() -> Self { Self(result: .notRequired) }
    /// The value can't be used.
    public class func unsupported() -> Self { Self(result: .unsupported()) }
    /// The value can't be used, for one of the parameter's unsupported reasons (its code
    /// name, `notMultipleOfFive`), whose format string the user hears.
    public class func unsupported(forReason reason: String) -> Self { Self(result: .unsupported(reason: reason)) }
}
