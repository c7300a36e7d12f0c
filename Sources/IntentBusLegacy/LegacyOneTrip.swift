import Foundation
import IntentBusCore

/// When a `run` request (docs/protocol.md §8.9) may go on past resolve: only when no
/// resolution needs the user or changes what the host would have to work out itself.
enum LegacyOneTrip {
    /// The intent as confirm and handle see it after `resolutions`, or nil when the run
    /// must stop at resolve and leave the rest to the host: a result that needs the user,
    /// a per-item result that changes an item (the host splices lists), or a required
    /// parameter left without a value (the host asks for it).
    static func settled(_ intent: LegacyIntent, _ resolutions: [String: ResolutionResult],
                        required: [String]) -> LegacyIntent? {
        var parameters = intent.parameters
        for (name, result) in resolutions {
            switch result {
            case .success(let value):
                // Written only when it changes a value (a resolver that settles the value it
                // was given, the common answer, leaves the dictionary unshared and uncopied).
                if value.isNull {
                    if parameters[name] != nil { parameters[name] = nil }
                } else if !(parameters[name]?.writesSameBytes(as: value) ?? false) {
                    parameters[name] = value
                }
            case .notRequired:
                break
            case .items(let results):
                let current = parameters[name]?.arrayValue ?? []
                guard results.count == current.count else { return nil }
                for (item, result) in zip(current, results) {
                    switch result {
                    case .notRequired: continue
                    case .success(let value) where value == item: continue
                    default: return nil
                    }
                }
            case .needsValue, .unsupported, .confirmationRequired, .disambiguation:
                return nil
            }
        }
        guard required.allSatisfy({ parameters[$0].map { !$0.isNull } ?? false }) else { return nil }
        return LegacyIntent(name: intent.name, parameters: parameters, client: intent.client)
    }
}
