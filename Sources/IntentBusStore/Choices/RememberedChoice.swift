import Foundation

/// A plugin remembered as the default for an intent, for one client or for all.
package struct RememberedChoice: Sendable, Equatable {
    /// The intent, for example `INSendPaymentIntent`.
    package var intent: String
    /// The client this choice applies to, or `nil` for every client.
    package var client: String?
    /// The id of the chosen plugin.
    package var plugin: String
    /// When the choice was remembered. Stored to the millisecond.
    package var setAt: Date
    /// Who made the choice: `"always"` (a client answered "always"), `"cli"` or `"api"`.
    package var source: String

    /// Creates a choice from its parts.
    package init(intent: String, client: String?, plugin: String, setAt: Date, source: String) {
        self.intent = intent
        self.client = client
        self.plugin = plugin
        self.setAt = setAt
        self.source = source
    }
}
