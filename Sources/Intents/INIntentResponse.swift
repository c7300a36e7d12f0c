import Foundation
import IntentBusCore

/// A handler's answer (SiriKit's `INIntentResponse`). The generated subclass
/// (`StatusIntentResponse`) holds the typed `code` and response properties; this base
/// holds what travels: the code's name and the response parameters' values.
open class INIntentResponse: @unchecked Sendable {
    // @unchecked: a response is built by one handler, then handed over once.
    /// For `continueInApp` and the like: what the app would continue with.
    public var userActivity: NSUserActivity?
    /// The response parameters in their wire form (the format strings' `${name}`s).
    public var responseValues = INValueStore()

    /// With `continueInApp`: the intent the host runs next, in the same conversation,
    /// instead of sending the user to the app (docs/results.md). Not Apple's: on iOS the
    /// app opens with `userActivity`. An intent this extension serves (its class names it
    /// to the host).
    public var opensIntent: INIntent?

    public init() {}

    /// The code's name as the definition spells it (`successData`); the generated
    /// subclass answers with its `code`'s name.
    open var codeName: String { "unspecified" }
}
