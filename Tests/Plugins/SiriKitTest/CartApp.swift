import Foundation

// The app's own pieces seed 004's CartShortcut uses, written for the test: step 1's
// NetworkManager.getBundleID() and the `localised` strings.

final class NetworkManager: Sendable {
    static let sharedInstance = NetworkManager()

    // Seed 004, step 1, as written: a plugin has no bundle, so this is "com.siri.ios".
    func getBundleID()->String{
        if let data = Bundle.main.bundleIdentifier{
            return data
        }else{
            return "com.siri.ios"
        }
    }
}

extension String {
    /// The app's string table.
    var localised: String { ["welocometo": "Welcome to", "applicationname": "Webkul Cart"][self] ?? self }
}
