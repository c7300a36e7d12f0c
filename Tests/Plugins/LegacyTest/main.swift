import Foundation
import IntentBus

// The plugin the legacy end-to-end tests run (Tests/IntentBusTests/Legacy*.swift), with
// the intents of Tests/Plugins/definitions/legacytest.yaml:
//   ResolveIntent   resolves `target` with the result that `kind` names; handle answers
//                   the undeclared code `bogus`, the generic `failure`, throws, exits or
//                   takes 1.5 s when `target` is "bogus", "fail", "throw", "exit" or "slow"
//   CodeIntent      written against the raw phase protocol (docs/protocol.md §8), as a
//                   plugin in another language would be: no confirm; handle sends
//                   `progress` updates and answers with whatever code `code` names
//   ConfirmIntent   confirm answers ready, or notAllowed when `allow` is false
//   TypesIntent     echoes the normalized parameters
//   SecretIntent    restricted in the tests' manifest
//   RenderIntent    answers with its parameters as response parameters, so that tests
//                   see how dialogs render each type; its definition is the test's own
//                   (one file per `locale:`)
// With LEGACY_CALL_LOG set, every phase call is appended to that file as
// "<intent> <phase>", so that tests can see what the plugin was (not) asked; with
// LEGACY_REQUEST_LOG set, every REQUEST it receives is appended there the same way (the
// one-trip tests count them), and LEGACY_PHASED makes it announce no phases (an old plugin).

let callLog = ProcessInfo.processInfo.environment["LEGACY_CALL_LOG"]
let logLock = Lock()

func record(_ intent: String, _ phase: String) {
    guard let callLog else { return }
    append("\(intent) \(phase)", to: callLog)
}

/// Appends one line to the log at `path`.
func append(_ text: String, to path: String) {
    logLock.withLock {
        let line = Data("\(text)\n".utf8)
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.close()
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: line)
        }
    }
}

struct ResolveHandler: LegacyIntentHandling {
    /// `bogus` is deliberately not in the definition: answering with it must fail.
    enum Code: String, LegacyResponseCode { case success, bogus, failure }
    static let options = ["Option 1", "Option 2", "Option 3"]

    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        record(intent.name, "resolve:\(parameter)")
        guard parameter == "target" else { return .success(intent[parameter] ?? .null) }
        let target = intent.string("target").flatMap { $0.isEmpty ? nil : $0 }
        switch intent.string("kind") ?? "success" {
        case "needsValue":
            return target.map { .success(.string($0)) } ?? .needsValue
        case "notRequired":
            return .notRequired
        case "unsupported":
            guard let target else { return .needsValue }
            return target == "bad" ? .unsupported(reason: "forbidden") : .success(.string(target))
        case "confirmationRequired":
            guard let target else { return .needsValue }
            return .confirmationRequired(.string(target))
        case "disambiguation":
            if let target, Self.options.contains(target) { return .success(.string(target)) }
            return .disambiguation(Self.options.enumerated().map { index, title in
                ResolutionOption(id: "o\(index + 1)", title: title, subtitle: "choice \(index + 1)", value: .string(title))
            })
        default:
            return .success(.string(target ?? "default"))
        }
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        record(intent.name, "handle")
        switch intent.string("target") {
        case "bogus": return LegacyResponse(.bogus)
        case "fail": return LegacyResponse(.failure)                      // the generic failure code
        case "throw": throw BusError(.pluginError, "the handler threw")   // an ERROR
        case "exit": exit(3)                                               // the plugin dies mid-request
        case "slow": try await Task.sleep(nanoseconds: 1_500_000_000)      // time for a CANCEL
        default: break
        }
        return LegacyResponse(.success, ["target": .string(intent.string("target") ?? "nothing")])
    }
}

struct ConfirmHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success, notAllowed }

    func confirm(_ intent: LegacyIntent, context: PluginContext) async throws -> ConfirmOutcome<Code>? {
        record(intent.name, "confirm")
        return intent.bool("allow") == true ? .ready : .failure(LegacyResponse(.notAllowed))
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        record(intent.name, "handle")
        return LegacyResponse(.success)
    }
}

struct TypesHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success }

    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        record(intent.name, "resolve:\(parameter)")
        return .success(intent[parameter] ?? .null)
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        record(intent.name, "handle")
        return LegacyResponse(.success, ["echo": .string(JSON.object(intent.parameters).canonicalString)])
    }
}

struct RenderHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        record(intent.name, "handle")
        return LegacyResponse(.success, intent.parameters)
    }
}

struct SecretHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        record(intent.name, "handle")
        return LegacyResponse(.success)
    }
}

/// OptionsIntent: `options` answers doubles, an empty id, no title, an overlong title
/// and 150 good ones; the host offers what is well-formed, at most 100 of the list.
struct OptionsHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success }

    func options(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> [ResolutionOption]? {
        [ResolutionOption(id: "a", title: "A"), ResolutionOption(id: "a", title: "A again"), ResolutionOption(id: "", title: "empty"),
         ResolutionOption(id: "long", title: String(repeating: "x", count: 2000))]
            + (1...150).map { ResolutionOption(id: "o\($0)", title: "Option \($0)", value: .string("value-\($0)")) }
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        LegacyResponse(.success, ["pick": .string(intent.string("pick") ?? "-")])
    }
}

do {
    let runtime = try PluginRuntime()
    let handlerFor: @Sendable (String) -> (any LegacyIntentHandling)? = { intent in
        switch intent {
        case "ResolveIntent": ResolveHandler()
        case "ConfirmIntent": ConfirmHandler()
        case "TypesIntent": TypesHandler()
        case "SecretIntent": SecretHandler()
        case "RenderIntent": RenderHandler()
        case "OptionsIntent": OptionsHandler()
        default: nil
        }
    }
    let intents = ["ResolveIntent", "ConfirmIntent", "TypesIntent", "SecretIntent", "RenderIntent", "OptionsIntent"]
    if let requestLog = ProcessInfo.processInfo.environment["LEGACY_REQUEST_LOG"] {
        // The same handlers through the same layer, with each REQUEST logged, so that tests
        // count the plugin's round trips; LEGACY_PHASED announces no phases, as an SDK
        // before one-trip did (docs/protocol.md §8.9).
        let phased = ProcessInfo.processInfo.environment["LEGACY_PHASED"] != nil
        let warnings = LegacyCodeWarnings()
        let logger = runtime.logger
        for intent in intents {
            if !phased { runtime.announce(intent, phases: LegacyPhase.served) }
            runtime.on(intent, style: .legacy) { request, context in
                append("\(request.intent) \(request.phase ?? "none")", to: requestLog)
                return try await LegacyPhases.serve(request, context, handlerFor: handlerFor, logger: logger, warnings: warnings)
            }
        }
    } else {
        runtime.onLegacy(intents, handlerFor: handlerFor)
    }
    // The raw phase protocol, without the SDK's types.
    runtime.on("CodeIntent", style: .legacy) { request, context in
        record(request.intent, request.phase ?? "none")
        switch request.phase {
        case "resolve":
            return .success(["resolutions": [:]])  // accept every parameter as given
        case "confirm":
            return .success(["implemented": false])
        default:
            let steps = request.parameters["progress"]?.intValue ?? 0
            for step in 0..<steps { context.progress("step \(step + 1) of \(steps)", fraction: Double(step + 1) / Double(steps)) }
            return .success(["code": request.parameters["code"] ?? "success", "response": ["detail": "3 von 3"]])
        }
    }
    runtime.run()
} catch {
    print("plugin-legacytest: \(error)")
    exit(2)
}
