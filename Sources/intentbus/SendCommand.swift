import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus send INTENT [key=value …]`: sends one request and prints the answer.
enum SendCommand {
    static let spec = CommandSpec(
        name: "send", summary: "send an intent request and print the answer",
        synopsis: ["send INTENT [key=value | key:=JSON …] [options]"],
        discussion: """
        Sends an intent request to the running host and prints the answer.
          key=value        a parameter; integers (without a leading zero), decimals and
                           true/false are typed, the rest are strings (0176 stays "0176")
          key:=JSON        a parameter given as raw JSON (key:='"007"', tags:='["a","b"]')
        """,
        positionals: [PositionalSpec("INTENT", completion: .dynamic("intents")),
                      PositionalSpec("key=value", variadic: true)],
        options: [
            .value("params", "JSON", "all parameters as one JSON object"),
            .value("timeout", "S", "seconds to wait for the plugin, 0.001…86400 (overrides the manifest)"),
            .value("plugin", "ID", "use this plugin when several claim the intent", completion: .dynamic("plugins")),
            .flag("remember", "with --plugin: remember it as the \"always\" choice"),
            .flag("idempotent", "with several hosts: send it again to another host if its host is lost (as the manifest's idempotent does)"),
            .value("choice", "POLICY", "when several plugins claim it: ask (default), fail, default",
                   choices: ["ask", "fail", "default"]),
            .repeated("answer", "name=value", """
                answer a prompt without asking (repeatable); the name is the
                parameter, or "confirm" / "plugin" for those prompts
                """),
            .value("locale", "LOCALE", "the user's locale (de-DE, de_DE, en): the language of\nan .intentdefinition's or a string table's dialogs"),
            ContextOption.spec,
            .value("client", "ID", "a stable client identity for remembered choices"),
            .value("action", "N", "run the answer's N-th snippet action (listed as numbered actions)"),
            .flag("json", "print the whole reply as JSON"),
        ] + Credential.options + CommonOptions.host,
        footer: """
        On a terminal, prompts are asked interactively and progress is a bar on stderr; otherwise
        progress is one line per update. A declined confirmation ends the request: the plugin's
        dialog is printed and the exit code is 1.
        Ctrl-C cancels the request (CANCEL to the host) and exits 130 after its final answer;
        a second Ctrl-C exits at once.
        Exit codes: 0 success, 1 the intent failed or was declined, 2 usage, 3 bus error,
        4 timeout, 5 host unreachable, 6 manifest error, 130 cancelled with Ctrl-C.
        """)

    static func run(_ args: Arguments) throws -> Int32 {
        guard var intent = args.positionals.first else { throw UsageError("send needs an INTENT") }
        var parameters = try parseParameters(Array(args.positionals.dropFirst()), json: args.value("params"))
        var actionNumber = try args.value("action").map { text throws(UsageError) in
            guard let n = Int(text), n >= 1, n <= SnippetActions.maximumActionNumber else {
                throw UsageError("--action takes a number from 1 to \(SnippetActions.maximumActionNumber), got \(text)")
            }
            return n
        }
        var options = RequestOptions()
        if let t = args.value("timeout") {
            options.timeout = try NumberOption.seconds(t, flag: "timeout", within: NumberOption.timeoutSeconds)
        }
        options.plugin = args.value("plugin")
        options.remember = args.flag("remember")
        if options.remember && options.plugin == nil { throw UsageError("--remember goes with --plugin") }
        if let policy = args.value("choice") {
            guard ["ask", "fail", "default"].contains(policy) else { throw UsageError("--choice is ask, fail or default") }
            options.choicePolicy = policy
        }
        options.credential = try Credential.read(args)
        options.locale = args.value("locale")
        options.context = try ContextOption.parse(args)
        options.clientIdentity = args.value("client")
        if args.flag("idempotent") { options.idempotent = true }
        var answers: [String: String] = [:]
        for a in args.values("answer") {
            guard let eq = a.firstIndex(of: "=") else { throw UsageError("--answer takes name=value, got \(a)") }
            answers[String(a[..<eq])] = String(a[a.index(after: eq)...])
        }
        let endpoints = try resolveEndpoints(args)
        if options.credential != nil { try endpoints.forEach(Credential.checkSocketOwner) }
        let curve = try curveKeys(args)
        let client = try connectedClient(endpoints: endpoints, curve: curve)
        let prompter = Prompter(answers: answers, interactive: isatty(0) == 1) { entity in
            // A second socket, to the host that holds the request: the first is busy with it.
            guard let side = try? IntentClient(endpoint: client.endpoint, curve: curve),
                  let body = try? side.control("ib.entities", ["entity": .string(entity), "query": "suggested"],
                                               wait: .seconds(3)) else { return [] }
            return body["results"]?.arrayValue ?? []
        }
        prompter.requestEnded = { client.requestEnded() }
        let progress = ProgressDisplay()
        Interrupts.cancelRequests(of: client) { progress.clear() }
        for _ in 0..<SnippetActions.maximumFollowUps {
            let reply: IntentReply
            do {
                reply = try client.send(intent, parameters: .object(parameters), options: options, onEvent: { event in
                    switch event {
                    case .progress(let body):
                        progress.show(body)
                        return nil
                    case .prompt(let prompt):
                        progress.clear()
                        return prompter.answer(prompt)
                    }
                }, onResult: { result in
                    progress.clear()
                    if !args.flag("json") { SnippetActions.printEarlier(result) }
                })
                progress.clear()
                if prompter.declinedIntentConfirmation {
                    // The person said no to the intent as a whole: nothing was done, whatever
                    // status the plugin chose for the words it answers with.
                    if args.flag("json") {
                        print(JSON.object(["status": "declined", "plugin": reply.plugin.map { .string($0) } ?? .null,
                                           "header": reply.header, "body": reply.body]).canonicalString)
                    } else {
                        printDialog(reply)
                        printError("(declined; \(reply.plugin ?? "?") did not go ahead)")
                    }
                    return ExitCode.intentFailed
                }
                if args.flag("json") {
                    var out: [String: JSON] = ["status": .string(reply.status), "plugin": reply.plugin.map { .string($0) } ?? .null,
                                               "header": reply.header, "body": reply.body]
                    if !reply.earlier.isEmpty {
                        out["earlier"] = .array(reply.earlier.map { ["status": .string($0.status), "header": $0.header, "body": $0.body] })
                    }
                    print(JSON.object(out).canonicalString)
                } else {
                    printReply(reply)
                    SnippetActions.show(reply)
                }
            } catch {
                progress.clear()
                if args.flag("json"), case .bus(let e) = error {
                    print(JSON.object(["status": "error", "error": e.json]).canonicalString)
                } else {
                    printError("error: \(error)")
                    if case .bus(let e) = error, let candidates = e.details["candidates"]?.arrayValue {
                        for c in candidates {
                            printError("  \(c["id"]?.displayText ?? "")\t\(c["name"]?.displayText ?? "")\t(\(c["style"]?.displayText ?? ""))")
                        }
                        printError("  choose with --plugin ID")
                    }
                }
                switch error {
                case .bus(let e) where e.code == .cancelled && Interrupts.interrupted: return Interrupts.exitStatus
                case .bus(let e) where e.code == .timeout: return ExitCode.timeout
                case .bus: return ExitCode.busError
                case .noAnswer, .hostLost: return ExitCode.hostUnreachable
                default: return ExitCode.busError
                }
            }
            let interactive = isatty(0) == 1 && !args.flag("json")
            guard let next = try SnippetActions.choose(reply, given: actionNumber, interactive: interactive) else {
                return reply.succeeded ? ExitCode.success : ExitCode.intentFailed
            }
            // The chosen action is a new request; the client's header (credential, client,
            // timeout) still applies, a plugin named for the first intent does not.
            (intent, parameters, actionNumber) = (next.intent, next.parameters.objectValue ?? [:], nil)
            options.plugin = nil
            options.remember = false
            if !args.flag("json") { printError("(running \(next.title) → \(next.intent))") }
        }
        printError("(stopped after \(SnippetActions.maximumFollowUps) actions in a row)")
        return ExitCode.success
    }

    /// Shows the reply as a person reads it: the dialog when there is one, else JSON, then
    /// on stderr who answered with what: the legacy response code, or the status.
    static func printReply(_ reply: IntentReply) {
        if printDialog(reply) {
            printError("(\(reply.body["code"]?.stringValue ?? reply.status) from \(reply.plugin ?? "?"))")
        }
        if !reply.succeeded { printError("the intent reported failure (\(reply.plugin ?? "?"))") }
        for notice in reply.header[.deprecations]?.arrayValue ?? [] { printError("note: \(notice.displayText)") }
    }

    /// Prints the dialog, or, when there is none, the body as a person reads it
    /// (`HumanText`; `--json` gives the JSON); true for a dialog.
    @discardableResult
    static func printDialog(_ reply: IntentReply) -> Bool {
        if let dialog = reply.body["dialog"]?.stringValue, !dialog.isEmpty {
            print(dialog)
            return true
        }
        let text = HumanText.render(reply.body)
        if !text.isEmpty { print(text) }
        return false
    }

    /// `key=value` and `key:=JSON` arguments, merged over `--params`.
    static func parseParameters(_ items: [String], json: String?) throws(UsageError) -> [String: JSON] {
        var out: [String: JSON] = [:]
        if let json {
            guard let parsed = try? JSON.parse(json), let o = parsed.objectValue else {
                throw UsageError("--params must be a JSON object, got \(json)")
            }
            out = o
        }
        for item in items {
            if let r = item.range(of: ":=") {
                let key = String(item[..<r.lowerBound])
                let raw = String(item[r.upperBound...])
                guard !key.isEmpty, let value = try? JSON.parse(raw) else {
                    throw UsageError("\(item): the value after := must be JSON")
                }
                out[key] = value
            } else if let eq = item.firstIndex(of: "="), eq != item.startIndex {
                out[String(item[..<eq])] = inferred(String(item[item.index(after: eq)...]))
            } else {
                throw UsageError("parameters are key=value or key:=JSON, got \(item)")
            }
        }
        return out
    }

    /// A `key=value` value: a JSON number when the text is written as one (no leading zero,
    /// no `+`, within Int64 for integers), true/false, else the text itself, so that a phone
    /// number such as 0176 stays a string.
    static func inferred(_ text: String) -> JSON {
        if isJSONNumber(text) {
            if !text.contains(where: { ".eE".contains($0) }) {
                if let i = Int64(text) { return .int(i) }
            } else if let d = Double(text), d.isFinite {
                return .double(d)
            }
        }
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        return .string(text)
    }
}

/// Whether `text` is a number as JSON writes it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
func isJSONNumber(_ text: String) -> Bool {
    var s = Substring(text)
    if s.first == "-" { s = s.dropFirst() }
    let integer = s.prefix(while: \.isASCIIDigit)
    guard !integer.isEmpty, integer == "0" || integer.first != "0" else { return false }
    s = s.dropFirst(integer.count)
    if s.first == "." {
        let fraction = s.dropFirst().prefix(while: \.isASCIIDigit)
        guard !fraction.isEmpty else { return false }
        s = s.dropFirst(1 + fraction.count)
    }
    if let e = s.first, e == "e" || e == "E" {
        s = s.dropFirst()
        if let sign = s.first, sign == "+" || sign == "-" { s = s.dropFirst() }
        let exponent = s.prefix(while: \.isASCIIDigit)
        guard !exponent.isEmpty else { return false }
        s = s.dropFirst(exponent.count)
    }
    return s.isEmpty
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Pretty JSON for people: indented, sorted keys.
func prettyJSON(_ value: JSON) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return value.canonicalString }
    return String(decoding: data, as: UTF8.self)
}
