import Foundation
import IntentBusCore
import IntentBusPlugin

extension PluginRuntime {
    /// Serves `intents` with legacy (SiriKit-style) handlers of the package's thin layer
    /// (`LegacyIntentHandling`; plugins use the generated classes, docs/sirikit.md). `handlerFor` is the
    /// counterpart of `INExtension.handler(for:)`: it returns the handler for an intent,
    /// or nil. It is called once per intent here, to announce only the intents that
    /// have a handler (the host refuses a plugin missing a handler for an intent its
    /// manifest entry claims), and again for every phase of every request.
    ///
    /// ```swift
    /// runtime.onLegacy(["StatusIntent", "SwitchContractIntent"]) { intent in
    ///     switch intent {
    ///     case "StatusIntent": StatusHandler()
    ///     case "SwitchContractIntent": SwitchContractHandler()
    ///     default: nil
    ///     }
    /// }
    /// ```
    package func onLegacy(_ intents: [String], handlerFor: @escaping @Sendable (String) -> (any LegacyIntentHandling)?) {
        let warnings = LegacyCodeWarnings()
        for intent in intents {
            guard let handler = handlerFor(intent) else {
                logger.error("handler(for: \(intent)) is nil: \(intent) is not announced (a manifest entry that claims it will be refused)")
                continue
            }
            declare(responseCodes: LegacyPhases.codes(of: handler), for: intent)
            let logger = self.logger
            announce(intent, phases: LegacyPhase.served)
            on(intent, style: .legacy) { request, context in
                try await LegacyPhases.serve(request, context, handlerFor: handlerFor, logger: logger, warnings: warnings)
            }
        }
    }
}

/// Runs one phase of a legacy request (docs/protocol.md §8) against a handler.
package enum LegacyPhases {
    package static func serve(_ request: PluginRequest, _ context: PluginContext,
                      handlerFor: @Sendable (String) -> (any LegacyIntentHandling)?,
                      logger: Logger, warnings: LegacyCodeWarnings) async throws -> PluginReply {
        guard let handler = handlerFor(request.intent) else {
            throw BusError(.pluginError, "no handler for \(request.intent) (handler(for:) returned nil)")
        }
        let words = LegacyHeaderWords.of(request)
        let intent = LegacyIntent(name: request.intent, parameters: request.parameters.objectValue ?? [:],
                                  client: words.client)
        let declared = words.declared
        switch words.phase {
        case .resolve?:
            return .success(["resolutions": .object(try await resolve(handler, intent, words, context).mapValues(\.json))])
        case .run?:
            return try await run(handler, intent, words, context, declared: declared, logger: logger, warnings: warnings)
        case .confirm?:
            warnings.check(handler, intent: intent.name, declared: declared, logger: logger)
            return try await confirm(handler, intent, context, declared: declared)
        case .handle?:
            warnings.check(handler, intent: intent.name, declared: declared, logger: logger)
            return try await handle(handler, intent, context, declared: declared)
        case .options?:
            guard let name = request.header["parameter"]?.stringValue else {
                throw BusError(.pluginError, "the options phase of \(request.intent) names no parameter")
            }
            guard let options = try await handler.options(name, of: intent, context: context) else {
                throw BusError(.pluginError, "the handler for \(request.intent) provides no options for \(name)")
            }
            return .success(["options": .array(options.map(\.json))])
        case nil:
            throw BusError(.pluginError, "\(request.intent) is a legacy intent, but the request names no phase (resolve, confirm, handle or options): \(request.header.canonicalString)")
        }
    }

    /// The header's `resolve` names, each resolved.
    private static func resolve(_ handler: some LegacyIntentHandling, _ intent: LegacyIntent, _ words: LegacyHeaderWords,
                                _ context: PluginContext) async throws -> [String: ResolutionResult] {
        let names = words.resolve ?? intent.parameters.keys.sorted()
        var resolutions: [String: ResolutionResult] = [:]
        for name in names {
            resolutions[name] = try await handler.resolve(name, of: intent, context: context)
        }
        return resolutions
    }

    /// Resolve, then — while nothing needs the user — confirm and handle, in one answer
    /// (docs/protocol.md §8.9): `resolutions`, `confirm` and `handle` as far as it got.
    private static func run(_ handler: some LegacyIntentHandling, _ intent: LegacyIntent, _ words: LegacyHeaderWords,
                            _ context: PluginContext, declared: [String]?, logger: Logger,
                            warnings: LegacyCodeWarnings) async throws -> PluginReply {
        let resolutions = try await resolve(handler, intent, words, context)
        var reply = LegacyRunReply(resolutions: resolutions)
        guard let resolved = LegacyOneTrip.settled(intent, resolutions, required: words.required) else { return reply.pluginReply }
        warnings.check(handler, intent: intent.name, declared: declared, logger: logger)  // once for confirm and handle
        // Whether it may go on to handle comes with the answer, not read back from its body.
        let confirmation = try await confirmAnswer(handler, resolved, context, declared: declared)
        reply.confirm = confirmation.body
        guard confirmation.ready else { return reply.pluginReply }
        let response = try await handler.handle(resolved, context: context)
        reply.handle = try handled(response, intent: intent.name, declared: declared)
        return reply.pluginReply
    }

    /// The cases of `handler`'s response-code enum, as HELLO lists them.
    static func codes<H: LegacyIntentHandling>(of handler: H) -> [String] {
        H.ResponseCode.allCases.map(\.rawValue)
    }

    private static func confirm<H: LegacyIntentHandling>(_ handler: H, _ intent: LegacyIntent, _ context: PluginContext,
                                                         declared: [String]?) async throws -> PluginReply {
        .success(try await confirmAnswer(handler, intent, context, declared: declared).body.json)
    }

    /// The confirm phase's body, and whether handle may follow (no confirm step, or `ready`:
    /// what the host reads from that body). The caller has checked the handler's codes
    /// (`LegacyCodeWarnings.check`), as for `handle`.
    private static func confirmAnswer<H: LegacyIntentHandling>(_ handler: H, _ intent: LegacyIntent, _ context: PluginContext,
                                                               declared: [String]?) async throws -> (body: LegacyConfirmBody, ready: Bool) {
        // A type whose confirm is the default answers as the default would, without the call.
        if DefaultConfirms.contains(type(of: handler)) { return (.notImplemented, true) }
        guard let outcome = try await handler.confirm(intent, context: context) else {
            return (.notImplemented, true)
        }
        switch outcome {
        case .ready:
            return (.ready, true)
        case .failure(let response):
            return (.answered(try handled(response, intent: intent.name, declared: declared).json), response.code.rawValue == "ready")
        }
    }

    private static func handle<H: LegacyIntentHandling>(_ handler: H, _ intent: LegacyIntent, _ context: PluginContext,
                                                        declared: [String]?) async throws -> PluginReply {
        let response = try await handler.handle(intent, context: context)
        return .success(try handled(response, intent: intent.name, declared: declared).json)
    }

    /// The answer, after making sure the code is one the definition declares.
    private static func handled<Code>(_ response: LegacyResponse<Code>, intent: String, declared: [String]?) throws -> LegacyHandled {
        let name = response.code.rawValue
        if let declared, !declared.contains(name) {
            throw BusError(.pluginError,
                "the handler for \(intent) answered with response code '\(name)', which \(intent)'s definition does not declare (declared: \(declared.joined(separator: ", ")))",
                details: ["code": .string(name)])
        }
        return LegacyHandled(code: name, response: response.parameters, opens: response.opensIntent?.json)
    }
}

/// Warns once per intent when a handler's `ResponseCode` enum has cases that the
/// intent's definition does not declare: returning one of them would fail.
package final class LegacyCodeWarnings: @unchecked Sendable {
    // @unchecked: `warned` and `last` are only touched under `lock`.
    private let lock = RequestLock()
    private var warned: Set<String> = []
    /// The intent checked last: a run of one intent's requests needs no hash.
    private var last: String?

    package init() {}

    /// `check` for the codes of `handler`'s `ResponseCode` enum.
    func check<H: LegacyIntentHandling>(_ handler: H, intent: String, declared: [String]?, logger: Logger) {
        check(H.ResponseCode.self, intent: intent, declared: declared, logger: logger)
    }

    func check<Code: LegacyResponseCode>(_ type: Code.Type, intent: String, declared: [String]?, logger: Logger) {
        guard let declared else { return }
        let first = lock.withLock { () -> Bool in
            if intent == last { return false }
            last = intent
            return warned.insert(intent).inserted
        }
        guard first else { return }
        let extra = Code.allCases.map(\.rawValue).filter { !declared.contains($0) }
        if !extra.isEmpty {
            logger.warning("\(Code.self) for \(intent) has codes its definition does not declare: \(extra.joined(separator: ", ")); answering with them will fail")
        }
    }
}
