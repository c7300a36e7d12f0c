/// The phases of a legacy (SiriKit-style) request, the `phase` word of its delivery header
/// (docs/protocol.md §8): the host's legacy flow writes it, the SDK's legacy layer reads it.
/// `run` is resolve, confirm and handle in one exchange while nothing needs asking (§8.9);
/// the host sends it only to a plugin whose HELLO lists it among the intent's `phases`.
package enum LegacyPhase: String, CaseIterable, Sendable {
    case resolve, confirm, handle, options, run

    /// What the SDKs announce for a legacy intent in HELLO.
    package static var served: [LegacyPhase] { allCases }

    /// The phase a delivery header's word names, or nil: what `init(rawValue:)` answers,
    /// without its search of a table of the case names (about 550 instructions per request
    /// in the SDK's legacy layer, callgrind): each word is a small string, compared whole.
    package init?(word: String) {
        switch word {
        case "run": self = .run
        case "resolve": self = .resolve
        case "confirm": self = .confirm
        case "handle": self = .handle
        case "options": self = .options
        default: return nil
        }
    }
}

/// What resolving one legacy parameter concluded, the `result` word of a resolution
/// (docs/protocol.md §8.2): the SDK's `ResolutionResult` writes it, the host's legacy flow
/// reads it.
package enum ResolutionKind: String, CaseIterable, Sendable {
    case success, needsValue, notRequired, unsupported, confirmationRequired, disambiguation

    /// The words, for a message about an unknown one.
    package static var words: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The word as a JSON string.
    package var json: JSON { .string(rawValue) }
}
