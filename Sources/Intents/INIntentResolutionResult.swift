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

/// A String parameter's result.
open class INStringResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedString: String) -> Self { Self(result: .success(.string(resolvedString))) }
    public class func confirmationRequired(with stringToConfirm: String?) -> Self {
        Self(result: .confirmationRequired(stringToConfirm.map { .string($0) } ?? .null))
    }
    public class func disambiguation(with stringsToDisambiguate: [String]) -> Self {
        Self(result: .disambiguation(stringsToDisambiguate.map { ResolutionOption(id: $0, title: $0, value: .string($0)) }))
    }
}

/// An Integer parameter's result.
open class INIntegerResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: Int) -> Self { Self(result: .success(.int(Int64(resolvedValue)))) }
    public class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self {
        Self(result: .confirmationRequired(valueToConfirm.map { .int($0.int64Value) } ?? .null))
    }
    public class func disambiguation(with valuesToDisambiguate: [Int]) -> Self {
        Self(result: .disambiguation(valuesToDisambiguate.map { ResolutionOption(id: "\($0)", title: "\($0)", value: .int(Int64($0))) }))
    }
}

/// A Decimal parameter's result.
open class INDoubleResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: Double) -> Self { Self(result: .success(.double(resolvedValue))) }
    public class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self {
        Self(result: .confirmationRequired(valueToConfirm.map { .double($0.doubleValue) } ?? .null))
    }
    public class func disambiguation(with valuesToDisambiguate: [Double]) -> Self {
        Self(result: .disambiguation(valuesToDisambiguate.map { ResolutionOption(id: "\($0)", title: "\($0)", value: .double($0)) }))
    }
}

/// A Boolean parameter's result.
open class INBooleanResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: Bool) -> Self { Self(result: .success(.bool(resolvedValue))) }
    public class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self {
        Self(result: .confirmationRequired(valueToConfirm.map { .bool($0.boolValue) } ?? .null))
    }
}

/// A Date parameter's result.
open class INDateComponentsResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedDateComponents: DateComponents) -> Self {
        var store = INValueStore()
        store.set(resolvedDateComponents, "value")
        return Self(result: .success(store.values["value"] ?? .null))
    }
    public class func confirmationRequired(with dateComponentsToConfirm: DateComponents?) -> Self {
        var store = INValueStore()
        store.set(dateComponentsToConfirm, "value")
        return Self(result: .confirmationRequired(store.values["value"] ?? .null))
    }
}

/// A custom-type parameter's result; the generated `ContractResolutionResult` narrows
/// it to its class.
open class INObjectResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedObject: INObject) -> Self { Self(result: .success(resolvedObject.wireValue)) }
    public class func confirmationRequired(with objectToConfirm: INObject?) -> Self {
        Self(result: .confirmationRequired(objectToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with objectsToDisambiguate: [INObject]) -> Self {
        Self(result: .disambiguation(objectsToDisambiguate.map {
            ResolutionOption(id: $0.identifier ?? $0.displayString, title: $0.displayString, value: $0.wireValue)
        }))
    }
}

/// A URL parameter's result.
open class INURLResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedURL: URL) -> Self { Self(result: .success(.string(resolvedURL.absoluteString))) }
    public class func confirmationRequired(with urlToConfirm: URL?) -> Self {
        Self(result: .confirmationRequired(urlToConfirm.map { .string($0.absoluteString) } ?? .null))
    }
}
