import Foundation
import IntentBusCore
import IntentBusPlugin

/// What a plugin donates with a result, so that the host can suggest it again (SiriKit's
/// `INInteraction.donate`, an `NSUserActivity` with `isEligibleForPrediction`). Travels
/// in the REPLY header as `donation`; the host records it when the request succeeds
/// (docs/shortcuts.md "Donations").
public struct IntentDonation: Sendable {
    /// A persistent identifier, to delete the donation later.
    public var identifier: String?
    /// A group identifier, to delete several together ("cart-ada").
    public var group: String?
    /// A title for people ("Show my cart").
    public var title: String?
    /// The phrase "Add to Siri" offers by default ("Show My Cart").
    public var suggestedInvocationPhrase: String?
    /// Whether the host may suggest it; true unless said otherwise.
    public var isEligibleForPrediction: Bool
    /// The parameters to suggest it with; the request's own when nil.
    public var parameters: JSON?

    public init(identifier: String? = nil, group: String? = nil, title: String? = nil,
                suggestedInvocationPhrase: String? = nil, isEligibleForPrediction: Bool = true, parameters: JSON? = nil) {
        self.identifier = identifier
        self.group = group
        self.title = title
        self.suggestedInvocationPhrase = suggestedInvocationPhrase
        self.isEligibleForPrediction = isEligibleForPrediction
        self.parameters = parameters
    }

    /// The REPLY header's `donation` object.
    public var json: JSON {
        var o: [String: JSON] = ["eligible_for_prediction": .bool(isEligibleForPrediction)]
        if let identifier { o["identifier"] = .string(identifier) }
        if let group { o["group"] = .string(group) }
        if let title { o["title"] = .string(title) }
        if let suggestedInvocationPhrase { o["suggested_phrase"] = .string(suggestedInvocationPhrase) }
        if let parameters { o["parameters"] = parameters }
        return .object(o)
    }
}

/// Which of its donations a plugin deletes with a result (when the data behind them is
/// gone): REPLY header `delete_donations`. The host deletes only the plugin's own.
public enum DonationDeletion: Sendable {
    case identifiers([String])
    case group(String)
    /// Every donation of this plugin.
    case all

    /// The REPLY header's `delete_donations` object.
    public var json: JSON {
        switch self {
        case .identifiers(let ids): ["identifiers": .array(ids.map { .string($0) })]
        case .group(let g): ["group": .string(g)]
        case .all: ["all": true]
        }
    }
}
