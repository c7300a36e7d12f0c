/// Who may run an intent: metadata `authentication` (App Intents'
/// `IntentAuthenticationPolicy`). The host enforces it (docs/security.md
/// "Authentication policies").
public enum IntentAuthenticationPolicy: String, Sendable, CaseIterable {
    /// Anyone on the bus (the default).
    case alwaysAllowed = "always_allowed"
    /// Only clients that present the host's client credential (REQUEST header
    /// `credential`); the host refuses others with `authentication_required`.
    case requiresAuthentication = "requires_authentication"
    /// Like `requiresAuthentication`, and only from this machine: clients on the host's
    /// ipc socket with the credential (docs/security.md "Authentication policies").
    case requiresLocalDeviceAuthentication = "requires_local_device_authentication"

    /// The policies as written in metadata, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
