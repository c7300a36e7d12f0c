/// Text from outside (clients, plugins, stored phrases) made safe for one line of a text
/// log or a terminal: control characters — newline, carriage return, escape (ANSI
/// sequences), NUL, DEL and the C1 range — become visible escapes (`\n`, `\r`, `\t`,
/// `\u{1b}`), so they can neither forge a log line nor drive the terminal.
public enum TerminalText {
    /// `text` with its control characters escaped; `text` itself when it has none (the
    /// usual case costs one scan of its UTF-8 bytes).
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F, 0x80..<0xA0: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
