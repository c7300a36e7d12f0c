import Foundation
import IntentBusCore

extension INIntentResolutionResult {
    /// What a generated `resolve<Parameter>` does when the handler does not implement it
    /// (an `@objc optional` method in Xcode's protocol): the value as the host gave it.
    public class func passThrough(_ intent: INIntent, _ parameter: String) -> Self {
        Self(result: .success(intent.parameterValues.values[parameter] ?? .null))
    }

    /// The same for a list parameter, one result per item.
    public static func passThroughItems<R: INIntentResolutionResult>(_ type: R.Type, _ intent: INIntent, _ parameter: String) -> [R] {
        guard let value = intent.parameterValues.values[parameter] else { return [] }
        return (value.arrayValue ?? [value]).map { R(result: .success($0)) }
    }

    /// A list parameter's results as one: each item's, in order (none: no value).
    public class func items(_ results: [INIntentResolutionResult]) -> INIntentResolutionResult {
        INIntentResolutionResult(result: results.isEmpty ? .success(.null) : .items(results.map(\.result)))
    }

    /// An enum parameter's value, by its case name (the generated `…ResolutionResult`).
    public class func success(caseNamed name: String) -> Self { Self(result: .success(.string(name))) }

    /// Ask the user to confirm an enum case, by its name.
    public class func confirmationRequired(caseNamed name: String?) -> Self {
        Self(result: .confirmationRequired(name.map { .string($0) } ?? .null))
    }
}
