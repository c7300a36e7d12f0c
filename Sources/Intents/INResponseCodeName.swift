import IntentBusLegacy

/// A response code by its name, as the legacy layer sends it: the generated
/// `…ResponseCode` enums are `Int`-backed as Xcode writes them, so the adapter answers
/// with their names. No cases are listed: the host and the legacy layer check the name
/// against the definition's codes.
struct INResponseCodeName: LegacyResponseCode {
    let rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
    static var allCases: [INResponseCodeName] { [] }
}
