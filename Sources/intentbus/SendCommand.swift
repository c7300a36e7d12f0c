import Foundation
import IntentBus

/// `intentbus send INTENT [key=value …]`: sends one request and prints the answer.
enum SendCommand {
    static let usage = """
    usage: intentbus send INTENT [key=value | key:=JSON …] [options]

    Sends an intent request to the running host and prints the answer.
      key=value        a parameter; numbers and true/false are typed, the rest are strings
      key:=JSON        a parameter given as raw JSON (key:='"007"', tags:='["a","b"]')

    options:
      --params JSON        all parameters as one JSON object
      --timeout S          seconds to wait for the plugin, 0.001…86400 (overrides the manifest)
      --plugin ID          use this plugin when several claim the intent
      --remember           with --plugin: remember it as the "always" choice
      --choice POLICY      when several plugins claim it: ask (default), fail, default
      --answer name=value  answer a prompt without asking (repeatable); the name is the
                           parameter, or "confirm" / "plugin" for those prompts
      --credential SECRET  the client credential for restricted intents
                           (or INTENTBUS_CREDENTIAL)
      --client ID          a stable client identity for remembered choices
      --json               print the whole reply as JSON
      --config FILE        manifest to find the host's endpoint (default ./plugins.yaml)
      --endpoint EP        the host's frontend endpoint (or INTENTBUS_ENDPOINT)

    On a terminal, prompts are asked interactively. Progress updates go to stderr.
    Exit codes: 0 success, 1 the intent failed, 2 usage, 3 bus error, 4 timeout,
    5 host unreachable, 6 manifest error.
    """

    static func run(_ argv: [String]) throws -> Int32 {
        let args = try Arguments(argv, valued: ["params", "timeout", "plugin", "choice", "answer", "credential",
                                                "client", "config", "endpoint"],
                                 booleans: ["json", "remember", "help"])
        if args.flag("help") { print(usage); return ExitCode.success }
        guard let intent = args.positionals.first else { throw UsageError("send needs an INTENT") }
        let parameters = try parseParameters(Array(args.positionals.dropFirst()), json: args.value("params"))
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
        options.credential = args.value("credential") ?? ProcessInfo.processInfo.environment["INTENTBUS_CREDENTIAL"]
        options.clientIdentity = args.value("client")
        var answers: [String: String] = [:]
        for a in args.values("answer") {
            guard let eq = a.firstIndex(of: "=") else { throw UsageError("--answer takes name=value, got \(a)") }
            answers[String(a[..<eq])] = String(a[a.index(after: eq)...])
        }
        let endpoint = try resolveEndpoint(args)
        let client = try IntentClient(endpoint: endpoint)
        let prompter = Prompter(answers: answers, interactive: isatty(0) == 1) { entity in
            // A second socket: the first is busy with the request being answered.
            guard let side = try? IntentClient(endpoint: endpoint),
                  let body = try? side.control("ib.entities", ["entity": .string(entity), "query": "suggested"],
                                               wait: .seconds(3)) else { return [] }
            return body["results"]?.arrayValue ?? []
        }
        do {
            let reply = try client.send(intent, parameters: .object(parameters), options: options) { event in
                switch event {
                case .progress(let body):
                    let fraction = body["fraction"]?.doubleValue.map { " (\(Int($0 * 100)) %)" } ?? ""
                    printError("… \(body["message"]?.stringValue ?? body.canonicalString)\(fraction)")
                    return nil
                case .prompt(let prompt):
                    return prompter.answer(prompt)
                }
            }
            if args.flag("json") {
                print(JSON.object(["status": .string(reply.status), "plugin": reply.plugin.map { .string($0) } ?? .null,
                                   "header": reply.header, "body": reply.body]).canonicalString)
            } else {
                printReply(reply)
            }
            return reply.succeeded ? ExitCode.success : ExitCode.intentFailed
        } catch {
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
            case .bus(let e) where e.code == .timeout: return ExitCode.timeout
            case .bus: return ExitCode.busError
            case .noAnswer: return ExitCode.hostUnreachable
            default: return ExitCode.busError
            }
        }
    }

    /// Shows the reply as a person reads it: the dialog when there is one, else JSON.
    static func printReply(_ reply: IntentReply) {
        let body = reply.body
        if let dialog = body["dialog"]?.stringValue, !dialog.isEmpty {
            print(dialog)
            if let code = body["code"]?.stringValue { printError("(\(code) from \(reply.plugin ?? "?"))") }
        } else {
            print(prettyJSON(body))
        }
        if !reply.succeeded { printError("the intent reported failure (\(reply.plugin ?? "?"))") }
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

    static func inferred(_ text: String) -> JSON {
        if let i = Int64(text) { return .int(i) }
        if text.contains("."), let d = Double(text), d.isFinite { return .double(d) }
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        return .string(text)
    }
}

/// Pretty JSON for people: indented, sorted keys.
func prettyJSON(_ value: JSON) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return value.canonicalString }
    return String(decoding: data, as: UTF8.self)
}
