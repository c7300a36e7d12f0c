import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus explain INTENT [--client ID]`: who would handle the intent, and why
/// (the host intent `ib.explain`).
enum ExplainCommand {
    static let spec = CommandSpec(
        name: "explain", summary: "who would handle an intent, and why",
        discussion: """
        Says who would handle INTENT and why: the plugins that claim it (id, name, handler
        style, state, priority), the remembered default for the client (--client) or for
        everyone, the manifest's preset default, and the rule that decides under each
        request policy (--choice ask, fail, default). Asking changes nothing.
        """,
        positionals: [PositionalSpec("INTENT", completion: .dynamic("intents"))],
        options: [.value("client", "ID", "the client identity whose remembered choice counts"), CommonOptions.json]
            + CommonOptions.host,
        footer: "Exit codes: 0 answered, 1 no plugin claims INTENT, 3 bus error, 5 host unreachable.")

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positionals.count == 1, let intent = args.positionals.first else {
            throw UsageError("explain needs exactly one INTENT")
        }
        var request: [String: JSON] = ["intent": .string(intent)]
        if let client = args.value("client") { request["client"] = .string(client) }
        let body = try connectedClient(args).control("ib.explain", .object(request))
        if args.flag("json") {
            print(prettyJSON(body))
        } else {
            print(render(body), terminator: "")
        }
        return body["candidates"]?.arrayValue?.isEmpty == false ? ExitCode.success : ExitCode.intentFailed
    }

    /// The reply as people read it.
    static func render(_ body: JSON) -> String {
        let intent = body["intent"]?.displayText ?? "?"
        let candidates = body["candidates"]?.arrayValue ?? []
        guard !candidates.isEmpty else {
            return "\(intent): \(body["decision"]?["explanation"]?.displayText ?? "no plugin claims it")\n"
        }
        var out = "\(intent) is claimed by \(candidates.count) plugin\(candidates.count == 1 ? "" : "s"):\n"
        let preset = body["preset"]?.stringValue
        var rows = [["ID", "NAME", "STYLE", "STATE", "PRIORITY", ""]]
        for c in candidates {
            let id = c["id"]?.displayText ?? ""
            rows.append([id, c["name"]?.displayText ?? "", c["style"]?.displayText ?? "", c["state"]?.displayText ?? "",
                         c["priority"]?.displayText ?? "0", id == preset ? "preset default" : ""])
        }
        out += table(rows, indent: "  ")
        for c in candidates {
            if let reason = c["reason"]?.stringValue { out += "  ! \(c["id"]?.displayText ?? ""): \(reason)\n" }
        }
        let client = body["client"]?.stringValue
        if let r = body["remembered"], !r.isNull {
            let whose = r["client"]?.stringValue.map { "client \($0)" } ?? "every client"
            out += "remembered default: \(r["plugin"]?.displayText ?? "?") for \(whose) (\(r["source"]?.displayText ?? "?"), \(r["set_at"]?.displayText ?? "?"))"
            if r["available"]?.boolValue == false { out += " — no longer available: \(r["unavailable"]?.displayText ?? "")" }
            out += "\n"
        } else {
            out += "remembered default: none\(client.map { " (for client \($0) or everyone)" } ?? " (for everyone)")\n"
        }
        out += "preset default (host.defaults): \(preset ?? "none")\n"
        out += "decision: \(body["decision"]?["explanation"]?.displayText ?? "?")\n"
        if let policies = body["policies"]?.objectValue {
            out += "by request policy:\n"
            for policy in ["ask", "fail", "default"] {
                guard let p = policies[policy] else { continue }
                let rule = p["rule"]?.displayText ?? ""
                let outcome: String
                if let plugin = p["plugin"]?.stringValue {
                    outcome = "→ \(plugin) (\(rule))"
                } else if rule == "prompt" {
                    outcome = "→ the client is asked to choose"
                } else {
                    outcome = "→ fails with choice_required"
                }
                out += "  --choice \(policy.padding(toLength: 8, withPad: " ", startingAt: 0)) \(outcome)\n"
            }
        }
        return out
    }
}

/// Left-aligned columns, two spaces apart; trailing blanks trimmed.
func table(_ rows: [[String]], indent: String = "") -> String {
    guard let columns = rows.map(\.count).max() else { return "" }
    let widths = (0..<columns).map { col in rows.map { col < $0.count ? $0[col].count : 0 }.max() ?? 0 }
    var out = ""
    for row in rows {
        let line = row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
            .joined(separator: "  ")
        out += indent + line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
    }
    return out
}
