import Foundation
import IntentBus

/// What `intentbus send` does with results that lead on (docs/results.md): prints each
/// RESULT as it arrives (an intent's answer that opened the next intent), lists an
/// interactive snippet's (`view`) rows with their actions numbered, and picks the action
/// to run next: `--action N`, else asked on a terminal.
enum SnippetActions {
    /// One offered action: a new request for `intent` with `parameters`.
    struct Action {
        let title: String
        let intent: String
        let parameters: JSON
    }

    /// Most actions run one after another from one `send` (each may show a view again).
    static let maximumFollowUps = 16
    /// The largest `--action` number (a view has at most 40 actions; docs/results.md).
    static let maximumActionNumber = 40

    /// Prints a RESULT: its dialog (or body), and on stderr what it opens.
    static func printEarlier(_ result: IntentReply) {
        SendCommand.printDialog(result)
        let opens = result.header[.opens]?.stringValue ?? "?"
        printError("(\(result.body["code"]?.stringValue ?? result.status) from \(result.plugin ?? "?"); opens \(opens))")
    }

    /// The view's actions in order, numbered as `show` prints them. Ignores malformed
    /// entries (the host has checked the view; this is only for display).
    static func actions(of reply: IntentReply) -> [Action] {
        guard let rows = reply.body["view"]?["rows"]?.arrayValue else { return [] }
        return rows.flatMap { row in
            (row["actions"]?.arrayValue ?? []).compactMap { a -> Action? in
                guard let intent = a["intent"]?.stringValue else { return nil }
                let title = "\(a["title"]?.displayText ?? intent): \(row["title"]?.displayText ?? "")"
                return Action(title: title, intent: intent, parameters: a["parameters"] ?? .object([:]))
            }
        }
    }

    /// Prints the view: its title, each row with its subtitle, and the numbered actions.
    static func show(_ reply: IntentReply) {
        guard let view = reply.body["view"], let rows = view["rows"]?.arrayValue else { return }
        if let title = view["title"]?.stringValue, !title.isEmpty { print(title) }
        var number = 0
        for row in rows {
            let subtitle = row["subtitle"]?.displayText ?? ""
            print("  • \(row["title"]?.displayText ?? "")\(subtitle.isEmpty ? "" : "  — \(subtitle)")")
            for action in row["actions"]?.arrayValue ?? [] {
                number += 1
                print("      \(number)) \(action["title"]?.displayText ?? "?") → \(action["intent"]?.displayText ?? "?")")
            }
        }
    }

    /// The action to run after `reply`: number `given` (from `--action`, 1-based), else
    /// asked on a terminal; nil for none. A number out of range is a usage error.
    static func choose(_ reply: IntentReply, given: Int?, interactive: Bool) throws(UsageError) -> Action? {
        let offered = actions(of: reply)
        guard !offered.isEmpty else {
            if given != nil { throw UsageError("--action: the answer offers no actions") }
            return nil
        }
        if let given {
            guard given >= 1, given <= offered.count else {
                throw UsageError("--action must be within 1…\(offered.count), got \(given)")
            }
            return offered[given - 1]
        }
        guard interactive else {
            printError("(run one of these with --action N)")
            return nil
        }
        while true {
            print("Run an action? 1–\(offered.count), Enter for none: ", terminator: "")
            fflush(nil)
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { return nil }
            if let n = Int(line), n >= 1, n <= offered.count { return offered[n - 1] }
            print("Please type a number from 1 to \(offered.count), or press Enter.")
        }
    }
}
