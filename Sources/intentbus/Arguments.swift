import Foundation

/// A command-line usage error: printed with the command's usage, exit 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A small argument reader over the standard library: `--flag`, `--option value`,
/// `--option=value`, and positionals.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: options that take a value.
    ///   - booleans: options that take none.
    init(_ args: [String], valued: Set<String>, booleans: Set<String>) throws(UsageError) {
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            if arg == "--" { positionals += args[i...]; break }
            guard arg.hasPrefix("--"), arg.count > 2 else {
                if arg.hasPrefix("-"), arg.count == 2, arg != "-h" { throw UsageError("unknown option \(arg)") }
                if arg == "-h" { flags.insert("help"); continue }
                positionals.append(arg)
                continue
            }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if booleans.contains(name) {
                if inline != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inline {
                    options[name, default: []].append(inline)
                } else {
                    guard i < args.count else { throw UsageError("--\(name) needs a value") }
                    options[name, default: []].append(args[i])
                    i += 1
                }
            } else {
                let all = (valued.union(booleans)).sorted().map { "--\($0)" }.joined(separator: ", ")
                throw UsageError("unknown option --\(name) (options: \(all))")
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
}
