import Foundation
import IntentBusCore
import IntentBusPlugin

/// The response codes one intent's handler may answer with, declared by the plugin
/// author as a `String` enum whose case names are the definition's code names:
///
/// ```swift
/// enum StatusCode: String, LegacyResponseCode {
///     case success, successData, successPhone, successDataAndPhone, userMissing, failure
/// }
/// ```
///
/// The generic codes (`success`, `failure`, `inProgress`, `continueInApp`, …) exist
/// for every custom intent; list the ones the handler uses. The SDK checks every
/// returned code against the codes the host declares for the intent and refuses an
/// undeclared one with a clear error; the host checks again (for plugins written
/// without this SDK).
public protocol LegacyResponseCode: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// A handler's answer: a response code and the response parameters its format string
/// names (`Sie haben ${balance} Guthaben.` needs `balance`).
public struct LegacyResponse<Code: LegacyResponseCode>: Sendable {
    public var code: Code
    public var parameters: [String: JSON]
    /// With `continueInApp`: the intent the host runs next in the same conversation,
    /// instead of sending the user to an app (docs/results.md).
    public var opensIntent: OpenedIntent?

    public init(_ code: Code, _ parameters: [String: JSON] = [:], opensIntent: OpenedIntent? = nil) {
        self.code = code
        self.parameters = parameters
        self.opensIntent = opensIntent
    }
}

/// The outcome of the confirm phase.
public enum ConfirmOutcome<Code: LegacyResponseCode>: Sendable {
    /// Everything is in place: go on to handle (SiriKit's `.ready`).
    case ready
    /// Stop here with this response; handle is not called.
    case failure(LegacyResponse<Code>)
}
