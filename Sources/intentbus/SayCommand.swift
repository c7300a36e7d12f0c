import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus say "…"`: runs whatever intent a phrase names (`ib.say`), with the usual
/// prompts, progress and final answer.
enum SayCommand {
    static let spec = CommandSpec(
        name: "say", summary: "run the intent a phrase names (\"Öffne Website in FocusFlow\")",
        synopsis: ["say TEXT… [options]"],
        discussion: """
        Runs the intent a phrase names: a phrase you recorded (intentbus shortcuts add)
        first, then the plugins' app shortcuts and legacy phrases. Case, accents,
        punctuation and spacing don't matter. A slot is filled from what you said: an entity
        by the plugin's query, an enum by a case's name. Prompts are asked as with send.
        """,
        positionals: [PositionalSpec("TEXT", variadic: true)],
        options: [
            .flag("match", "show what the phrase would run, without running it"),
            .repeated("answer", "name=value", "answer a prompt without asking (repeatable), as with send"),
            .value("client", "ID", "a stable client identity (remembered choices, donations)"),
            .value("locale", "LOCALE", "the user's locale (de-DE, de_DE, en): the language of\nan .intentdefinition's or a string table's dialogs"),
            ContextOption.spec,
            .value("timeout", "S", "seconds to wait for the plugin, 0.001…86400"),
            .flag("json", "print the whole reply as JSON"),
        ] + Credential.options + CommonOptions.host,
        footer: "Ctrl-C cancels the request (CANCEL to the host), as in send. Exit codes as for send; no matching phrase is a bus error (3), listing the closest.")

    static func run(_ args: Arguments) throws -> Int32 {
        let text = args.positionals.joined(separator: " ")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("say needs TEXT") }
        let endpoints = try resolveEndpoints(args)
        let curve = try curveKeys(args)
        let client = try connectedClient(endpoints: endpoints, curve: curve)
        // A phrase may require some of the context (docs/shortcuts.md), so --match asks with it too.
        let context = try ContextOption.parse(args)
        if args.flag("match") {
            do {
                var matchOptions = RequestOptions()
                matchOptions.timeout = .seconds(5)
                matchOptions.context = context
                matchOptions.clientIdentity = args.value("client")
                let match = try client.send("ib.say.match", parameters: ["text": .string(text)], options: matchOptions) { _ in nil }.body
                if args.flag("json") { print(prettyJSON(match)); return ExitCode.success }
                let params = (match["parameters"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
                    .map { "\($0.key)=\($0.value.canonicalString)" }.joined(separator: " ")
                let plugins = (match["plugins"]?.arrayValue ?? match["plugin"].map { [$0] } ?? []).compactMap(\.stringValue)
                print("“\(match["phrase"]?.displayText ?? text)” (\(match["source"]?.displayText ?? "?")) → \(match["intent"]?.displayText ?? "?")"
                      + (params.isEmpty ? "" : " \(params)") + (plugins.isEmpty ? "" : " [\(plugins.joined(separator: ", "))]"))
                return ExitCode.success
            } catch {
                return report(error, json: args.flag("json"))
            }
        }
        var options = RequestOptions()
        if let t = args.value("timeout") {
            options.timeout = try NumberOption.seconds(t, flag: "timeout", within: NumberOption.timeoutSeconds)
        }
        options.credential = try Credential.read(args)
        if options.credential != nil { try endpoints.forEach(Credential.checkSocketOwner) }
        options.locale = args.value("locale")
        options.context = context
        options.clientIdentity = args.value("client")
        var answers: [String: String] = [:]
        for a in args.values("answer") {
            guard let eq = a.firstIndex(of: "=") else { throw UsageError("--answer takes name=value, got \(a)") }
            answers[String(a[..<eq])] = String(a[a.index(after: eq)...])
        }
        let prompter = Prompter(answers: answers, interactive: isatty(0) == 1) { entity in
            guard let side = try? IntentClient(endpoint: client.endpoint, curve: curve),
                  let body = try? side.control("ib.entities", ["entity": .string(entity), "query": "suggested"],
                                               wait: .seconds(3)) else { return [] }
            return body["results"]?.arrayValue ?? []
        }
        prompter.requestEnded = { client.requestEnded() }
        // Ctrl-C cancels the request the phrase started, as in `send`.
        Interrupts.cancelRequests(of: client)
        do {
            let reply = try client.send("ib.say", parameters: ["text": .string(text)], options: options, onEvent: { event in
                switch event {
                case .progress(let body):
                    printError("… \(body["message"]?.stringValue ?? body.canonicalString)")
                    return nil
                case .prompt(let prompt):
                    return prompter.answer(prompt)
                }
            }, onResult: { result in
                // An intent whose result opened the next one (docs/results.md).
                if !args.flag("json") { SnippetActions.printEarlier(result) }
            })
            if args.flag("json") {
                print(JSON.object(["status": .string(reply.status), "plugin": reply.plugin.map { .string($0) } ?? .null,
                                   "header": reply.header, "body": reply.body]).canonicalString)
            } else {
                SendCommand.printReply(reply)
            }
            return reply.succeeded ? ExitCode.success : ExitCode.intentFailed
        } catch {
            return report(error, json: args.flag("json"))
        }
    }

    /// Asks the host one host intent (the phrase commands: shortcuts, suggestions,
    /// donations) with the command's endpoint and keys: the answer, or nil and the exit
    /// code after the failure is printed as `report` does.
    static func ask(_ intent: String, _ request: [String: JSON], _ args: Arguments) throws -> (JSON?, Int32) {
        let client = try connectedClient(args)
        do {
            return (try client.control(intent, .object(request)), ExitCode.success)
        } catch {
            return (nil, report(error, json: args.flag("json")))
        }
    }

    /// Prints a failed say and picks the exit code; "no phrase matches" lists the closest.
    static func report(_ error: ClientError, json: Bool) -> Int32 {
        if json, case .bus(let e) = error {
            print(JSON.object(["status": "error", "error": e.json]).canonicalString)
        } else {
            printError("error: \(error)")
            if case .bus(let e) = error, let candidates = e.details["candidates"]?.arrayValue {
                for c in candidates {
                    printError("  \(c["intent"]?.displayText ?? c["id"]?.displayText ?? "")\t\(c["plugin"]?.displayText ?? c["name"]?.displayText ?? "")\t\(c["phrase"]?.displayText ?? "")")
                }
            }
        }
        switch error {
        case .bus(let e) where e.code == .cancelled && Interrupts.interrupted: return Interrupts.exitStatus
        case .bus(let e) where e.code == .timeout: return ExitCode.timeout
        case .noAnswer, .hostLost: return ExitCode.hostUnreachable
        default: return ExitCode.busError
        }
    }
}
