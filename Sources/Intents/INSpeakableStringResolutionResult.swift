import Foundation
import IntentBusCore
import IntentBusLegacy

/// A speakable string's result (SiriKit's `INSpeakableStringResolutionResult`): a group's, workout's or ride option's name.
open class INSpeakableStringResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedString: INSpeakableString) -> Self { Self(result: .success(resolvedString.wireValue)) }
    public class func confirmationRequired(with stringToConfirm: INSpeakableString?) -> Self {
        Self(result: .confirmationRequired(stringToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with stringsToDisambiguate: [INSpeakableString]) -> Self {
        Self(result: .disambiguation(INWireResolutionOptions.options(stringsToDisambiguate.map {
            (title: $0.spokenPhrase, subtitle: nil, id: $0.vocabularyIdentifier, value: $0.wireValue)
        })))
    }
}
