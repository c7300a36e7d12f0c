import IntentBus

/// The keys a load connection needs for a CURVE frontend, as the round command carries
/// them: `"curve": {"server": Z85, "public": Z85, "secret": Z85}`.
struct LoadCurveKeys: Hashable {
    let server: String
    let publicKey: String
    let secretKey: String
    /// Requests and answers in the packed form (docs/protocol.md §2.1).
    let packed: Bool

    init?(_ json: JSON?) {
        guard let json, let server = json["server"]?.stringValue, let publicKey = json["public"]?.stringValue,
              let secretKey = json["secret"]?.stringValue else { return nil }
        (self.server, self.publicKey, self.secretKey) = (server, publicKey, secretKey)
        packed = json["packed"]?.boolValue ?? false
    }
}
