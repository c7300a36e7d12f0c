import Foundation
import IntentBusCore
import IntentBusLegacy

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
