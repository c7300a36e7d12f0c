import Foundation
import IntentBusCore
import IntentBusLegacy

/// A Placemark parameter's result (SiriKit's `INPlacemarkResolutionResult`): an address the user said, resolved to a named place with a coordinate.
open class INPlacemarkResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedPlacemark: CLPlacemark) -> Self { Self(result: .success(resolvedPlacemark.wireValue)) }
    public class func confirmationRequired(with placemarkToConfirm: CLPlacemark?) -> Self {
        Self(result: .confirmationRequired(placemarkToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with placemarksToDisambiguate: [CLPlacemark]) -> Self {
        Self(result: .disambiguation(INWireResolutionOptions.options(placemarksToDisambiguate.map {
            (title: $0.name ?? $0.description, subtitle: $0.location.map { "\($0.coordinate.latitude), \($0.coordinate.longitude)" }, id: nil, value: $0.wireValue)
        })))
    }
}
