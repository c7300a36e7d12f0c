import AppIntents

/// The running focus session (the app's model behind StartFocusSessionIntent).
actor FocusSessionManager {
    static let shared = FocusSessionManager()

    /// When the current session ends, if one runs.
    private(set) var endsAt: Date?

    /// Starts a session of `minutes`, replacing one that runs. The host has checked the
    /// range (5…180) before the plugin sees the request; this guards callers without it.
    func start(minutes: Int) throws {
        guard (5...180).contains(minutes) else {
            throw FocusSessionError(minutes: minutes)
        }
        endsAt = Date().addingTimeInterval(Double(minutes) * 60)
    }
}

/// A session length outside 5…180 minutes.
struct FocusSessionError: Error, CustomStringConvertible {
    let minutes: Int
    var description: String { "a focus session lasts 5 to 180 minutes, not \(minutes)" }
}
