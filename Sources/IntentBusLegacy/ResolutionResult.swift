import Foundation
import IntentBusCore
import IntentBusPlugin

/// What resolving one parameter concluded: the counterpart of SiriKit's
/// `INIntentResolutionResult` subclasses. The host acts on it (docs/protocol.md §8.2):
/// it asks the user what `needsValue`, `unsupported`, `confirmationRequired` and
/// `disambiguation` need, then calls resolve again.
public enum ResolutionResult: Sendable, Equatable {
    /// The parameter is settled with this value (`.null` for "no value").
    case success(JSON)
    /// Ask the user for a value (the definition's Primary dialog), then resolve again.
    case needsValue
    /// The parameter is not needed; stop resolving it.
    case notRequired
    /// The value can't be used. `reason` names one of the parameter's
    /// `unsupportedReasons`, whose format string the user hears before being asked again.
    case unsupported(reason: String? = nil)
    /// Ask the user a yes/no question about this value; yes settles it.
    case confirmationRequired(JSON)
    /// Ask the user to pick one of these (Apple advises at most about five).
    case disambiguation([ResolutionOption])
    /// One result per item of a list (`multiple`) parameter, in the items' order, as
    /// SiriKit's `resolveRecipients(for:)` answers: the host asks about each item that
    /// needs it, in order. For an empty list, answer a list of one (`[.needsValue]`).
    indirect case items([ResolutionResult])

    /// The wire form: `{"result": "success", "value": …}` and so on.
    public var json: JSON {
        switch self {
        case .success(let value): ["result": ResolutionKind.success.json, "value": value]
        case .needsValue: ["result": ResolutionKind.needsValue.json]
        case .notRequired: ["result": ResolutionKind.notRequired.json]
        case .unsupported(let reason):
            reason.map { ["result": ResolutionKind.unsupported.json, "reason": .string($0)] } ?? ["result": ResolutionKind.unsupported.json]
        case .confirmationRequired(let value): ["result": ResolutionKind.confirmationRequired.json, "value": value]
        case .disambiguation(let options): ["result": ResolutionKind.disambiguation.json, "options": .array(options.map(\.json))]
        case .items(let results): .array(results.map(\.json))
        }
    }
}

/// One choice offered in a disambiguation.
public struct ResolutionOption: Sendable, Equatable {
    /// What the user's answer names; unique among the options.
    public var id: String
    /// What the user sees ("Alex Meyer").
    public var title: String
    /// A second line ("mobile, 0176 …").
    public var subtitle: String?
    /// What the parameter becomes when this option is picked; the `id` when nil. The
    /// host resolves the parameter again with it.
    public var value: JSON?

    public init(id: String, title: String, subtitle: String? = nil, value: JSON? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.value = value
    }

    /// The wire form.
    public var json: JSON {
        var o: [String: JSON] = ["id": .string(id), "title": .string(title)]
        if let subtitle { o["subtitle"] = .string(subtitle) }
        if let value { o["value"] = value }
        return .object(o)
    }
}
