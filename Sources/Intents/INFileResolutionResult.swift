import Foundation
import IntentBusCore
import IntentBusLegacy

/// A File parameter's result (SiriKit's `INFileResolutionResult`).
open class INFileResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedFile: INFile) -> Self { Self(result: .success(resolvedFile.wireValue)) }
    public class func confirmationRequired(with fileToConfirm: INFile?) -> Self {
        Self(result: .confirmationRequired(fileToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with filesToDisambiguate: [INFile]) -> Self {
        Self(result: .disambiguation(INWireResolutionOptions.options(filesToDisambiguate)))
    }
}
