import Foundation
import IntentBusCore

/// A URL parameter's result.
open class INURLResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedURL: URL) -> Self { Self(result: .success(.string(resolvedURL.absoluteString))) }
    public class func confirmationRequired(with urlToConfirm: URL?) -> Self {
        Self(result: .confirmationRequired(urlToConfirm.map { .string($0.absoluteString) } ?? .null))
    }
}
