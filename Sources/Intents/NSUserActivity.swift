import Foundation
import IntentBusCore
import IntentBusAppIntents

/// A donation's persistent identifier, as Foundation names it.
public typealias NSUserActivityPersistentIdentifier = String

/// What the app would continue with, and a donation (Foundation's `NSUserActivity`, which
/// Foundation on Linux does not have). `becomeCurrent()` donates it for prediction
/// when `isEligibleForPrediction` is set, as on iOS; the host then suggests it
/// (`intentbus suggestions`) and `persistentIdentifier` deletes it again.
open class NSUserActivity: @unchecked Sendable {
    // @unchecked: built and donated by one handler.
    public let activityType: String
    public var title: String?
    /// Only property-list values travel (strings, numbers, booleans, arrays, dictionaries).
    public var userInfo: [AnyHashable: Any]?
    public var isEligibleForPrediction = false
    public var isEligibleForSearch = false
    public var suggestedInvocationPhrase: String?
    public var persistentIdentifier: String?

    public init(activityType: String) { self.activityType = activityType }

    /// Deletes the donations made with these persistent identifiers, with the current
    /// request's REPLY (`INInteraction.delete(with:)`); outside a request it is logged.
    open class func deleteSavedUserActivities(withPersistentIdentifiers persistentIdentifiers: [NSUserActivityPersistentIdentifier],
                                              completionHandler handler: @escaping () -> Void) {
        INInteraction.request(.identifiers(persistentIdentifiers), "NSUserActivity.deleteSavedUserActivities") { error in
            if let error { Logger(label: "Intents").warning("\(error)") }
        }
        handler()
    }

    /// Deletes every donation of the plugin.
    open class func deleteAllSavedUserActivities(completionHandler handler: @escaping () -> Void) {
        INInteraction.request(.all, "NSUserActivity.deleteAllSavedUserActivities") { error in
            if let error { Logger(label: "Intents").warning("\(error)") }
        }
        handler()
    }

    /// Donates the activity when it is eligible for prediction, with the request it is
    /// made in. Outside a request there is no REPLY to carry it: logged, not donated.
    open func becomeCurrent() {
        guard isEligibleForPrediction else { return }
        guard let collector = INDonationCollector.current else {
            Logger(label: "Intents").warning("NSUserActivity(\(activityType)).becomeCurrent() outside a request: not donated")
            return
        }
        collector.add(donation)
    }

    /// Does nothing here: there is no current activity to resign off the device.
    open func resignCurrent() {}

    /// The donation this activity makes.
    var donation: IntentDonation {
        // The user info becomes the suggested parameters; without it, the request's own.
        var parameters: [String: JSON] = [:]
        for (key, value) in userInfo ?? [:] {
            if let key = key as? String, let json = Self.json(value) { parameters[key] = json }
        }
        return IntentDonation(identifier: persistentIdentifier, title: title,
                              suggestedInvocationPhrase: suggestedInvocationPhrase,
                              isEligibleForPrediction: isEligibleForPrediction, parameters: parameters.isEmpty ? nil : .object(parameters))
    }

    private static func json(_ value: Any) -> JSON? {
        switch value {
        case let v as String: .string(v)
        case let v as Bool: .bool(v)
        case let v as Int: .int(Int64(v))
        case let v as Double: .double(v)
        case let v as [Any]: .array(v.compactMap(json))
        case let v as [String: Any]: .object(v.compactMapValues(json))
        default: nil
        }
    }
}
