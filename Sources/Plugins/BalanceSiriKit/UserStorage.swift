import Intents

/// Who is logged in. `BALANCE_LOGGED_OUT=1` makes nobody so (the `userMissing` answer).
struct UserStorage {
    func activeUser() -> String? {
        ProcessInfo.processInfo.environment["BALANCE_LOGGED_OUT"] == "1" ? nil : "0176 1234567"
    }
}
