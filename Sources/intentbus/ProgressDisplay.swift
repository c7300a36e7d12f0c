import Foundation
import IntentBus

/// Shows PROGRESS updates on standard error: on a terminal, one bar redrawn in place with
/// the plugin's message; otherwise one plain line per update, for logs and scripts.
final class ProgressDisplay {
    private let onTerminal: Bool
    private let width: Int
    /// Whether a bar is on screen (and must be cleared before anything else is written).
    private var drawn = false

    init(onTerminal: Bool = isatty(2) == 1, width: Int = 24) {
        self.onTerminal = onTerminal
        self.width = width
    }

    /// Shows one PROGRESS body (`message`, optional `fraction` 0…1).
    func show(_ body: JSON) {
        let message = body["message"]?.stringValue ?? body.canonicalString
        let fraction = body["fraction"]?.doubleValue.map { min(max($0, 0), 1) }
        printError(onTerminal ? "\r\u{1B}[K" + Self.bar(fraction, message, width: width) : Self.line(fraction, message),
                   newline: !onTerminal)
        drawn = onTerminal
    }

    /// Removes the bar before a prompt or the answer is written.
    func clear() {
        guard drawn else { return }
        printError("\r\u{1B}[K", newline: false)
        drawn = false
    }

    /// `[##########--------------]  42 %  message`, or `… message` without a fraction.
    static func bar(_ fraction: Double?, _ message: String, width: Int) -> String {
        guard let fraction else { return "… \(message)" }
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        return "[\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent) %  \(message)"
    }

    /// The plain line for logs: `… message (42 %)`.
    static func line(_ fraction: Double?, _ message: String) -> String {
        "… \(message)\(fraction.map { " (\(Int(($0 * 100).rounded(.down))) %)" } ?? "")"
    }
}

/// Writes to standard error, with or without a newline.
func printError(_ text: String, newline: Bool) {
    FileHandle.standardError.write(Data((newline ? text + "\n" : text).utf8))
}
