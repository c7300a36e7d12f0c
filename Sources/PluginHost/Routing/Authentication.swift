import Foundation
import IntentBusCore
import IntentBusManifest

/// Whether a request is authenticated, for what needs it: an intent restricted while
/// locked (`admissionError`) and a new-style intent's authentication policy
/// (`IntentAuthenticationPolicy.problem`). One check; each caller says in its own words
/// what needed it.
struct Authentication {
    /// The host's settings: the shared credential and the client grants.
    let host: HostSettings
    /// Clients connect with CURVE keys: their grants decide, not the credential.
    let clientKeysRequired: Bool

    enum Outcome: Equatable {
        case authenticated
        /// A keyed client whose grant lacks `restricted: true` (its name, when it has one).
        case noRight(client: String?)
        /// Without client keys: the shared credential is not configured, not given, or wrong.
        case credential(why: String)
    }

    /// The outcome for a request with header `options` (after `rightsProblem` has set
    /// `authenticated` for a keyed client).
    func check(_ options: JSON) -> Outcome {
        if clientKeysRequired {
            let name = options["authenticated"]?.stringValue
            if let name, host.clients.first(where: { $0.name == name })?.restricted == true { return .authenticated }
            return .noRight(client: name)
        }
        let given = options["credential"]?.stringValue
        guard let expected = host.clientCredential else {
            return .credential(why: "no client credential is configured in the host (host.client_credential)")
        }
        guard let given else { return .credential(why: "the request carries no credential") }
        return constantTimeEquals(given, expected) ? .authenticated : .credential(why: "the credential is wrong")
    }
}
