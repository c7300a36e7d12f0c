import Foundation
import IntentBusCore
import IntentBusPlugin

/// What a `perform()` leaves beside its result, for the REPLY: donations made and deleted
/// through `IntentDonationManager`, and whether it continued in the foreground.
///
/// Threading: one per request, set as a task local around `perform()`; `perform()` may
/// start child tasks, so the fields are guarded by `lock`.
final class IntentRequestState: @unchecked Sendable {
    // @unchecked: every field is touched under `lock`.
    @TaskLocal static var current: IntentRequestState?

    /// The request's context, for questions and progress (`IntentQuestions.context`).
    let context: PluginContext
    private let lock = RequestLock()
    private var donation: IntentDonation?
    private var deletion: DonationDeletion?
    private var foreground = false

    init(context: PluginContext) { self.context = context }

    func donate(_ donation: IntentDonation) { lock.withLock { self.donation = donation } }
    func delete(_ deletion: DonationDeletion) { lock.withLock { self.deletion = deletion } }
    func continuedInForeground() { lock.withLock { foreground = true } }

    var continuesInForeground: Bool { lock.withLock { foreground } }

    /// The REPLY header fields for the donation and deletion.
    var header: [String: JSON] {
        lock.withLock {
            var header: [String: JSON] = [:]
            if let donation { header[.donation] = donation.json }
            if let deletion { header[.deleteDonations] = deletion.json }
            return header
        }
    }
}

/// Donates intents so that the host can suggest them again, and deletes donations (App
/// Intents' `IntentDonationManager`). A donation made during `perform()` travels in the
/// REPLY header (`donation`) and is recorded when the request succeeds
/// (docs/shortcuts.md "Donations"); outside a request there is no host to tell, and
/// the call throws.
public final class IntentDonationManager: Sendable {
    public static let shared = IntentDonationManager()

    /// Donates `intent` with its current parameter values. Returns the donation's
    /// identifier (to delete it later).
    @discardableResult
    public func donate<I: AppIntent>(intent: I) async throws -> IntentDonationIdentifier {
        let parameters = IntentReflection.currentValues(of: intent)
        let identifier = IntentDonationIdentifier()
        try state().donate(IntentDonation(identifier: identifier.rawValue, title: I.title.resolved(), parameters: parameters))
        return identifier
    }

    /// Donates `intent` with IntentBus's extra fields: a group, a title, the phrase to
    /// offer (SiriKit's `INInteraction` had them).
    @discardableResult
    public func donate<I: AppIntent>(intent: I, group: String? = nil, title: LocalizedStringResource? = nil,
                                     suggestedInvocationPhrase: String? = nil, identifier: String? = nil) async throws -> IntentDonationIdentifier {
        let id = identifier.map(IntentDonationIdentifier.init(rawValue:)) ?? IntentDonationIdentifier()
        try state().donate(IntentDonation(identifier: id.rawValue, group: group, title: (title ?? I.title).resolved(),
                                          suggestedInvocationPhrase: suggestedInvocationPhrase,
                                          parameters: IntentReflection.currentValues(of: intent)))
        return id
    }

    /// Deletes this plugin's donations that match.
    public func deleteDonations(matching predicate: IntentDonationMatchingPredicate) async throws {
        try state().delete(predicate.deletion)
    }

    private func state() throws -> IntentRequestState {
        guard let state = IntentRequestState.current else {
            throw BusError(.internalError, "donations are made inside perform(): the REPLY carries them to the host")
        }
        return state
    }
}

/// A donation's identifier.
public struct IntentDonationIdentifier: Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    init() { rawValue = UUID().uuidString.lowercased() }
}

/// Which donations to delete.
public struct IntentDonationMatchingPredicate: Sendable {
    let deletion: DonationDeletion
    /// These donations.
    public static func donationIdentifiers(_ ids: [IntentDonationIdentifier]) -> Self {
        Self(deletion: .identifiers(ids.map(\.rawValue)))
    }
    /// A group given when donating (IntentBus).
    public static func group(_ name: String) -> Self { Self(deletion: .group(name)) }
    /// Every donation of the plugin.
    public static var all: Self { Self(deletion: .all) }
}
