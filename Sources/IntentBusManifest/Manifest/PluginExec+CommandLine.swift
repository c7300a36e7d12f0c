import Foundation

extension PluginExec {
    /// The whole command, as a shell would take it: the program and every argument, with
    /// single quotes where a word needs them (`/usr/bin/python3 -m intentbus.examples.coffee`).
    package var commandLine: String {
        ([path] + arguments).map(Self.shellQuoted).joined(separator: " ")
    }

    static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0)) }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
