import Foundation

/// What a shortcut runs (SiriKit's `INShortcut`, an enum in Swift as in Apple's overlay):
/// an intent or a user activity. On iOS it goes to "Add to Siri"
/// (`INUIAddVoiceShortcutViewController`); here the user records the phrase with
/// `intentbus shortcuts add`, and the activity's `becomeCurrent()` is the donation the
/// host suggests it from (docs/sirikit.md, "What has no counterpart").
public enum INShortcut: @unchecked Sendable {
    // @unchecked: holds classes built and read by one handler.
    case intent(INIntent)
    case userActivity(NSUserActivity)

    /// Apple's `INShortcut(intent:)`: nil for an intent that can't be a shortcut; here
    /// every intent can, as every one a plugin serves runs by its name.
    public init?(intent: INIntent) { self = .intent(intent) }
    public init(userActivity: NSUserActivity) { self = .userActivity(userActivity) }

    public var intent: INIntent? { if case .intent(let i) = self { i } else { nil } }
    public var userActivity: NSUserActivity? { if case .userActivity(let a) = self { a } else { nil } }
}
