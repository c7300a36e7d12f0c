/// The text form of a CURVE key, checked without libzmq: the manifest names keys and is
/// read by modules that do not link it (the manifest fuzz target among them).
package enum CurveKeyText {
    /// The Z85 alphabet (ZeroMQ RFC 32).
    private static let alphabet = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")

    /// Whether `text` is a Z85 CURVE key: 40 characters of the Z85 alphabet.
    package static func isKey(_ text: String) -> Bool {
        text.count == 40 && text.allSatisfy(alphabet.contains)
    }
}
