import Foundation
import IntentBusCore
import IntentBusAppIntents

/// An intent and its response, donated so that the host can suggest the intent again
/// (SiriKit's `INInteraction`). The donation leaves with the REPLY of the request the
/// handler is answering.
open class INInteraction: @unchecked Sendable {
    // @unchecked: built and donated by one handler.
    public let intent: INIntent
    public let intentResponse: INIntentResponse?
    public var identifier: String?
    public var groupIdentifier: String?

    public init(intent: INIntent, response: INIntentResponse?) {
        self.intent = intent
        self.intentResponse = response
    }

    /// The failure `donate(completion:)` reports when there is no request to carry it.
    public struct DonationError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Donates the interaction with the current request; `completion` gets nil, or an
    /// error when called outside a request (there is no REPLY to carry it).
    open func donate(completion: ((_ error: (any Error)?) -> Void)? = nil) {
        guard let collector = INDonationCollector.current else {
            completion?(DonationError(description: "INInteraction.donate outside a request: nothing carries the donation"))
            return
        }
        collector.add(IntentDonation(identifier: identifier, group: groupIdentifier,
                                     suggestedInvocationPhrase: intent.suggestedInvocationPhrase,
                                     parameters: .object(intent.parameterValues.values)))
        completion?(nil)
    }

    /// Deletes the plugin's donations with these identifiers. Like every deletion it
    /// leaves with the REPLY of the handle phase it is made in (`delete_donations`), and
    /// the host deletes only this plugin's; outside a request it reports an error.
    public class func delete(with interactionIdentifiers: [String], completion: ((_ error: (any Error)?) -> Void)? = nil) {
        request(.identifiers(interactionIdentifiers), "INInteraction.delete(with:)", completion)
    }

    /// Deletes the plugin's donations made with this group identifier.
    public class func delete(with groupIdentifier: String, completion: ((_ error: (any Error)?) -> Void)? = nil) {
        request(.group(groupIdentifier), "INInteraction.delete(with:)", completion)
    }

    /// Deletes every donation of the plugin.
    public class func deleteAll(completion: ((_ error: (any Error)?) -> Void)? = nil) {
        request(.all, "INInteraction.deleteAll", completion)
    }

    static func request(_ deletion: DonationDeletion, _ method: String, _ completion: ((_ error: (any Error)?) -> Void)?) {
        guard let collector = INDonationCollector.current else {
            completion?(DonationError(description: "\(method) outside a request: nothing carries the deletion"))
            return
        }
        collector.delete(deletion)
        completion?(nil)
    }
}
