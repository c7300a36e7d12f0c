import Foundation
import IntentBusCore

/// An intent as its handler sees it (SiriKit's `INIntent`): the generated subclass
/// (`class StatusIntent: INIntent`) gives each parameter a typed property over
/// `parameterValues`, the values the host resolved so far.
open class INIntent: @unchecked Sendable {
    // @unchecked: an intent is made for one phase and read by its handler only.
    /// The request's id.
    public var identifier: String?
    /// The parameters' values in their wire form.
    public var parameterValues = INValueStore()
    /// The phrase Siri would offer when the intent is added as a shortcut.
    public var suggestedInvocationPhrase: String?

    public required init() {}
}
