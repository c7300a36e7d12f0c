/// The handler styles a plugin can declare for an intent (HELLO `style`). Here, beside the
/// message kinds, because the host reads it from a HELLO as much as the SDK writes it.
public enum HandlerStyle: String, Sendable, Codable, CaseIterable {
    /// Any JSON in, any JSON out; the host forwards without decoding.
    case plain
    /// SiriKit-style resolve → confirm → handle, driven by the host.
    case legacy
    /// App Intents-style `perform()` with declared parameters.
    case new
}
