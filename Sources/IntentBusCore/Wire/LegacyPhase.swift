/// The phases of a legacy (SiriKit-style) request, the `phase` word of its delivery header
/// (docs/protocol.md §8): the host's legacy flow writes it, the SDK's legacy layer reads it.
package enum LegacyPhase: String, CaseIterable, Sendable {
    case resolve, confirm, handle, options
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
