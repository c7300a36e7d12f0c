import Foundation
import IntentBusCore
import IntentBusLegacy

/// A Person parameter's result (SiriKit's `INPersonResolutionResult`): "Alex" among three
/// contacts is `disambiguation(with:)`, each shown with its handle.
open class INPersonResolutionResult: INObjectResolutionResult, @unchecked Sendable {
    public class func success(with resolvedPerson: INPerson) -> Self { Self(result: .success(resolvedPerson.wireValue)) }
    public class func confirmationRequired(with personToConfirm: INPerson?) -> Self {
        Self(result: .confirmationRequired(personToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with peopleToDisambiguate: [INPerson]) -> Self {
        Self(result: .disambiguation(INWireResolutionOptions.options(peopleToDisambiguate.map {
            (title: $0.displayName, subtitle: $0.personHandle?.value, id: $0.identifier, value: $0.wireValue)
        })))
    }
}
