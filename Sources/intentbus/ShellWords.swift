import Foundation
import IntentBus

/// Words a person can paste into a shell: the commands the CLI suggests (`suggestions`'
/// "Add to Siri") quote what needs quoting, so they run as shown.
enum ShellWords {
    /// Characters a word may have and stay unquoted.
    private static let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,")

    /// `word` as one shell word: as is when it is plain, else in single quotes.
    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A parameter as `send` and `shortcuts add` read it back: `key=value` when that
    /// gives the same value (a string that doesn't look like a number or true/false,
    /// a number, a boolean), `key:=JSON` otherwise.
    static func parameter(_ key: String, _ value: JSON) -> String {
        switch value {
        case .string(let s):
            let typed = (try? JSON.parse(Data(s.utf8))).map { $0.stringValue == nil } ?? false
            return quoted(typed ? "\(key):=\(value.canonicalString)" : "\(key)=\(s)")
        case .int, .double, .bool:
            return quoted("\(key)=\(value.displayText)")
        default:
            return quoted("\(key):=\(value.canonicalString)")
        }
    }
}
