import Foundation
import IntentBusCore
import IntentBusStore

/// Whose user phrases, donations and suggestions a request may see and change
/// (docs/security.md, docs/shortcuts.md). With CURVE clients, each belongs to the client
/// that made it: the authenticated identity, never a body field, decides; edit, delete and
/// list check the owner, and `say` runs only the speaker's own phrases (and those made
/// without a client), with the speaker's own rights. A grant with `manage_choices` may see
/// and change everyone's. On ipc the file system is the boundary and everyone who can open
/// the socket manages everything, as before.
extension ShortcutCenter {
    /// Who the request acts for: over CURVE the header's `client`, which the router made
    /// the key's name (another only with `manage_choices`, Routing/Authentication+Rights.swift); on
    /// ipc the body's `client`, else the header's.
    func requester(_ request: ControlRequest) -> String? {
        if request.options["authenticated"] != nil { return request.options["client"]?.stringValue }
        return request.body["client"]?.stringValue ?? request.options["client"]?.stringValue
    }

    /// The client whose entries alone the request may touch, or nil for everyone's (ipc,
    /// or a grant with `manage_choices`).
    func ownerScope(_ request: ControlRequest) -> String? {
        guard let name = request.options["authenticated"]?.stringValue else { return nil }
        if view.manifest.host.clients.first(where: { $0.name == name })?.manageChoices == true { return nil }
        return name
    }
}
