import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest
import IntentBusDefinitions

/// Drives one legacy (SiriKit-style) request: resolve every parameter, ask the user
/// what resolution needs, resolve again, then confirm (when the plugin implements it),
/// then handle, and render the response code's dialog. The wire format of each phase
/// is docs/protocol.md §8.
///
/// One instance per exchange; every call happens on the router thread.
final class LegacyFlow: ExchangeFlow {
    /// What the host is waiting for.
    enum Stage {
        case resolving([String])
        /// Resolve (these names), confirm and handle in one plugin exchange (LegacyFlow+OneTrip.swift).
        case running([String])
        /// The plugin's options for a value question's parameter (LegacyFlow+Options.swift).
        case fetchingOptions(Question)
        case confirming
        case handling
        /// A question to the client about one parameter.
        case asking(Question)
        /// The plugin asked the client something itself; the answer goes back to it.
        case relayingPluginPrompt(previous: Box)
    }

    /// Boxes a stage so the enum can refer to itself.
    final class Box {
        let stage: Stage
        init(_ stage: Stage) { self.stage = stage }
    }

    enum Question {
        case value(parameter: String, prompt: JSON)
        case confirmation(parameter: String, value: JSON, prompt: JSON)
        case disambiguation(parameter: String, options: [JSON], prompt: JSON)

        var prompt: JSON {
            switch self {
            case .value(_, let p), .confirmation(_, _, let p), .disambiguation(_, _, let p): p
            }
        }
    }

    /// A plugin that keeps answering "ask again" would loop for ever; Siri gives up too.
    static let maximumResolveRounds = 32

    let definition: IntentDefinition
    let pluginId: String
    /// The plugin announced the `run` phase for this intent and the request carries no
    /// run key: resolve, confirm and handle go as one exchange while nothing needs asking.
    let oneTrip: Bool
    var parameters: [String: JSON] = [:]
    var settled: Set<String> = []
    /// The list item the open question is about, and confirmed items (LegacyFlow+Items.swift).
    var items = ListItemState()
    /// Notices about deprecated parameter names the client used (REPLY header `deprecations`).
    var deprecations: [String] = []
    var stage: Stage = .resolving([])
    var rounds = 0
    /// The definition's dialogs as `rendered` reads them (LegacyFlow+Finish.swift): the
    /// relay lane's check hands its flows the one it keeps; a flow makes its own otherwise.
    private var preparedDialogs: LegacyDialogs?

    init(definition: IntentDefinition, pluginId: String, oneTrip: Bool = false, dialogs: LegacyDialogs? = nil) {
        self.definition = definition
        self.pluginId = pluginId
        self.oneTrip = oneTrip
        self.preparedDialogs = dialogs
    }

    var dialogs: LegacyDialogs {
        if let preparedDialogs { return preparedDialogs }
        let made = LegacyDialogs(definition)
        preparedDialogs = made
        return made
    }

    // MARK: - ExchangeFlow

    func start(_ exchange: Exchange, body: Frame, _ ops: any FlowOperations) {
        let given: JSON
        do { given = try JSON.parse(body.data) } catch {
            return ops.fail(exchange, BusError(.invalidParameters, "\(exchange.intent) is a legacy-style (SiriKit) intent, which takes its parameters as a JSON object; the body is not JSON: \(error.message)"))
        }
        guard var object = given.objectValue else {
            return ops.fail(exchange, BusError(.invalidParameters, "the parameters must be a JSON object, got \(ParameterCoercion.describe(given))"))
        }
        let problem = take(object)
        for notice in deprecations { ops.logger.warning("request \(exchange.clientRequestId): \(notice)") }
        if let problem { return ops.fail(exchange, problem) }
        resolve(definition.parameters.map(\.name), exchange, ops)
    }

    /// Takes the client's parameters (a JSON object): its deprecated names replaced
    /// (`deprecations` says which), then checked, normalized and completed with defaults
    /// (`validate`). Returns the error for the client, or nil.
    func take(_ given: [String: JSON]) -> BusError? {
        let object: [String: JSON]
        (object, deprecations) = DeprecatedParameters.apply(given, definition)
        return validate(object)
    }

    func pluginMessage(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {
        let body: JSON
        do { body = try message.bodyJSON() } catch {
            return ops.fail(exchange, BusError(.pluginError, "plugin \(pluginId) sent a \(message.kind.rawValue) whose body is \(error.message)"))
        }
        switch message.kind {
        case .progress:
            ops.progressToClient(exchange, body: body)
        case .error:
            // A plugin that provides no options is asked the question without them.
            if case .fetchingOptions(let question) = stage { return optionsArrived(question, nil, exchange, ops) }
            ops.fail(exchange, BusError(json: body))
        case .prompt:
            stage = .relayingPluginPrompt(previous: Box(stage))
            ops.promptClient(exchange, prompt: body)
        case .reply:
            switch stage {
            case .resolving(let names): resolved(names, body, exchange, ops)
            case .running(let names): ran(names, body, message, exchange, ops)
            case .confirming: confirmed(body, exchange, ops)
            case .handling: handled(body, exchange, ops, carried: Self.donationFields(message))
            case .fetchingOptions(let question): optionsArrived(question, body, exchange, ops)
            case .asking, .relayingPluginPrompt:
                ops.logger.warning("plugin \(pluginId) sent a REPLY for \(exchange.intent) while the client was being asked; ignored")
            }
        default:
            break
        }
    }

    func clientAnswer(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {
        if case .relayingPluginPrompt(let previous) = stage {
            stage = previous.stage
            ops.sendToPlugin(exchange, kind: .answer, header: nil, body: (try? message.bodyJSON()) ?? .object([:]))
            return
        }
        guard case .asking(let question) = stage else { return }
        let answer: JSON
        do { answer = try message.bodyJSON()["value"] ?? .null } catch {
            return reask(question, problem: "That answer could not be read (\(error.message)).", exchange, ops)
        }
        switch question {
        case .value(let name, _):
            guard let parameter = definition.parameter(name) else { return }
            let answer = optionValue(question, answer)
            if answer.isNull { return reask(question, problem: AnswerProblems.needValue(definition), exchange, ops) }
            switch ParameterCoercion.coerce(answer, parameter, in: definition) {
            case .failure(let problem):
                return reask(question, problem: AnswerProblems.doesNotFit(parameter, answer: answer, englishProblem: problem.message,
                                                                          in: definition), exchange, ops)
            case .success(let value):
                answered(name, value, settle: false)
            }
        case .confirmation(let name, let value, _):
            let yes: Bool?
            switch answer {
            case .bool(let b): yes = b
            case .string(let s): yes = YesNoWords.answer(s)
            default: yes = nil
            }
            guard let yes else { return reask(question, problem: AnswerProblems.yesOrNo(definition), exchange, ops) }
            // A confirmed value is settled; resolving it again could ask again.
            answered(name, yes ? value : nil, settle: yes)
        case .disambiguation(let name, let options, _):
            let chosen = answer.stringValue ?? answer.displayText
            guard let option = options.first(where: { $0["id"]?.stringValue == chosen }) else {
                let ids = options.compactMap { $0["id"]?.stringValue }.joined(separator: ", ")
                return reask(question, problem: AnswerProblems.notAnOption(chosen, ids: ids, definition), exchange, ops)
            }
            answered(name, option["value"] ?? option["id"], settle: false)
        }
        continueResolving(exchange, ops)
    }

    // MARK: - Resolve

    /// Checks the client's parameters against the definition, normalizes them and fills
    /// in defaults. Returns the error for the client, or nil.
    func validate(_ given: [String: JSON]) -> BusError? {
        var problems: [JSON] = []
        var messages: [String] = []
        for key in given.keys.sorted() {
            let value = given[key]!
            guard let parameter = definition.parameter(key) else {
                let known = definition.parameters.map(\.name)
                var message = "unknown parameter '\(key)'"
                if let near = YAMLMapping.closest(to: key, among: known) { message += "; did you mean '\(near)'?" }
                message += known.isEmpty ? " (\(definition.name) takes no parameters)" : " (\(definition.name) takes \(known.joined(separator: ", ")))"
                messages.append(message)
                problems.append(PromptVocabulary.problem(key, expected: nil, "unknown"))
                continue
            }
            if value.isNull { continue }
            switch ParameterCoercion.coerce(value, parameter, in: definition) {
            case .success(let normalized): parameters[key] = normalized
            case .failure(let problem):
                messages.append("parameter '\(key)' (\(parameter.type)): \(problem.message)")
                problems.append(PromptVocabulary.problem(key, expected: parameter.type.description, problem.message))
            }
        }
        guard messages.isEmpty else {
            return BusError(.invalidParameters, "\(definition.name): " + messages.joined(separator: "; "),
                            details: PromptVocabulary.details(intent: definition.name, problems: problems))
        }
        for parameter in definition.parameters where parameters[parameter.name] == nil {
            if let value = parameter.defaultValue { parameters[parameter.name] = value }
        }
        return nil
    }

    var parametersJSON: JSON { .object(parameters) }

    func header(_ phase: LegacyPhase, _ exchange: Exchange, extra: [String: JSON] = [:]) -> JSON {
        header(phase, options: exchange.options, extra: extra)
    }

    /// A phase's REQUEST header for a request whose checked header is `options`.
    func header(_ phase: LegacyPhase, options: JSON, extra: [String: JSON] = [:]) -> JSON {
        var h = extra
        h["phase"] = .string(phase.rawValue)
        h["style"] = "legacy"
        if let client = options["client"]?.stringValue { h["client"] = .string(client) }
        RequestContext.deliver(from: options, into: &h)
        // Only the phase that acts runs once; resolve and confirm only look.
        if phase == .handle { RunKey.deliver(from: options, into: &h) }
        return .object(h)
    }

    func resolve(_ names: [String], _ exchange: Exchange, _ ops: any FlowOperations) {
        guard !names.isEmpty || oneTrip else { return confirm(exchange, ops) }
        rounds += 1
        guard rounds <= Self.maximumResolveRounds else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) did not settle \(names.joined(separator: ", ")) after \(Self.maximumResolveRounds) rounds of resolution"))
        }
        if oneTrip { return run(names, exchange, ops) }
        stage = .resolving(names)
        ops.sendToPlugin(exchange, kind: .request,
                         header: header(.resolve, exchange, extra: ["resolve": .array(names.map { .string($0) })]),
                         body: parametersJSON)
    }

    /// Resolves whatever is not settled yet, or moves on to confirm.
    private func continueResolving(_ exchange: Exchange, _ ops: any FlowOperations) {
        resolve(definition.parameters.map(\.name).filter { !settled.contains($0) }, exchange, ops)
    }

    private func resolved(_ names: [String], _ body: JSON, _ exchange: Exchange, _ ops: any FlowOperations) {
        switch applyResolutions(names, body, intent: exchange.intent) {
        case .failure(let error): ops.fail(exchange, error)
        case .success(let question?): askAbout(question, exchange, ops)
        case .success(nil): continueResolving(exchange, ops)
        }
    }

    /// Asks the first question resolution needs.
    func askAbout(_ question: Question, _ exchange: Exchange, _ ops: any FlowOperations) {
        items.asking = question.prompt["item"]?.intValue.map { Int($0) }
        ask(question, exchange, ops)
    }

    /// Takes a resolve REPLY's `resolutions` for `names`: settles what they settle and
    /// returns the first question one of them needs (nil: none), or the plugin's mistake.
    func applyResolutions(_ names: [String], _ body: JSON, intent: String) -> Result<Question?, BusError> {
        guard let resolutions = body["resolutions"]?.objectValue else {
            return .failure(BusError(.pluginError,
                "plugin \(pluginId) answered the resolve phase of \(intent) without a \"resolutions\" object"))
        }
        var question: Question?
        for name in names {
            guard let parameter = definition.parameter(name) else { continue }
            // A parameter the plugin does not resolve is taken as it is.
            var resolution = resolutions[name] ?? ["result": ResolutionKind.success.json]
            if parameter.multiple, let items = resolution.arrayValue {
                // One result per item, as resolveRecipients answers (LegacyFlow+Items.swift).
                if let whole = wholeListResolution(parameter, items) {
                    resolution = whole
                } else {
                    switch resolvedItems(parameter, items) {
                    case .failure(let error): return .failure(error)
                    case .success(let asked): question = question ?? asked
                    }
                    continue
                }
            }
            let result = resolution["result"]?.stringValue ?? ""
            guard let kind = ResolutionKind(rawValue: result) else {
                return .failure(BusError(.pluginError,
                    "plugin \(pluginId) resolved \(name) with unknown result \"\(result)\" (\(ResolutionKind.words))"))
            }
            let current = parameters[name]
            switch kind {
            case .success:
                if let value = resolution["value"], !value.isNull {
                    switch ParameterCoercion.coerce(value, parameter, in: definition) {
                    case .success(let normalized):
                        // A value already there, byte for byte, is left in place: writing it
                        // again copied the dictionary that `finalOfRun` holds for comparison.
                        if !normalized.isSameScalar(as: current) { parameters[name] = normalized }
                    case .failure(let problem):
                        return .failure(BusError(.pluginError,
                            "plugin \(pluginId) resolved \(name) to a value that does not fit its definition: \(problem.message)"))
                    }
                } else if resolution["value"]?.isNull == true {
                    parameters[name] = nil
                }
                if parameter.required, parameters[name] == nil {
                    // Resolved to nothing, yet required: ask, as for needsValue.
                    question = question ?? valueQuestion(parameter, unsupported: nil)
                } else {
                    settled.insert(name)
                }
            case .notRequired:
                settled.insert(name)
            case .needsValue:
                question = question ?? valueQuestion(parameter, unsupported: nil)
            case .unsupported:
                question = question ?? valueQuestion(parameter, unsupported: .some(resolution["reason"]?.stringValue))
            case .confirmationRequired:
                let value = resolution["value"].flatMap { $0.isNull ? nil : $0 } ?? current ?? .null
                if question == nil { question = confirmationQuestion(parameter, value: value) }
            case .disambiguation:
                guard let raw = resolution["options"]?.arrayValue, !raw.isEmpty else {
                    return .failure(BusError(.pluginError,
                        "plugin \(pluginId) asked to disambiguate \(name) without any options"))
                }
                if question == nil { question = disambiguationQuestion(parameter, options: raw) }
            }
        }
        return .success(question)
    }

    // MARK: - Confirm and handle

    var codeNames: JSON { .array(definition.codes.map { .string($0.name) }) }

    func confirm(_ exchange: Exchange, _ ops: any FlowOperations) {
        stage = .confirming
        ops.sendToPlugin(exchange, kind: .request, header: header(.confirm, exchange, extra: ["codes": codeNames]),
                         body: parametersJSON)
    }

    /// Goes on after confirm's answer `body`: to handle — or, after a one-trip run, to the
    /// handle answer `handled` that came with it — or ends with confirm's code.
    func confirmed(_ body: JSON, _ exchange: Exchange, _ ops: any FlowOperations,
                   handled ran: (body: JSON, carried: [String: JSON])? = nil) {
        if goesOn(afterConfirm: body) {
            ops.logger.debug(confirmNote(body, request: exchange.clientRequestId, intent: exchange.intent))
            return ran.map { handled($0.body, exchange, ops, carried: $0.carried) } ?? handle(exchange, ops)
        }
        guard let code = body["code"]?.stringValue else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) answered the confirm phase of \(exchange.intent) without a \"code\" (or \"implemented\": false)"))
        }
        finish(code: code, response: body["response"], phase: .confirm, exchange, ops)
    }

    /// Whether confirm's answer goes on to handle: not implemented, or `ready`.
    func goesOn(afterConfirm body: JSON) -> Bool {
        body["implemented"]?.boolValue == false || body["code"]?.stringValue == "ready"
    }

    /// The debug line for a confirm answer that goes on to handle.
    func confirmNote(_ body: JSON, request: String, intent: String) -> String {
        body["implemented"]?.boolValue == false ? "request \(request) (\(intent)): confirm not implemented by \(pluginId); handling"
                                                 : "request \(request) (\(intent)): confirmed ready by \(pluginId)"
    }

    private func handle(_ exchange: Exchange, _ ops: any FlowOperations) {
        stage = .handling
        ops.sendToPlugin(exchange, kind: .request, header: header(.handle, exchange, extra: ["codes": codeNames]),
                         body: parametersJSON)
    }

    /// The donation and deletion a plugin's handle REPLY carries in its header (an Intents
    /// extension's `NSUserActivity.becomeCurrent()`): the final REPLY carries them on, so
    /// that the shortcuts extension records them as it does a plain plugin's. Parsed only
    /// when the header's bytes name a donation.
    static func donationFields(_ message: WireMessage) -> [String: JSON] {
        guard ShortcutCenter.mentionsDonation(message.header), let header = try? message.headerJSON().objectValue else { return [:] }
        return header.filter { ReplyHeaderKey.donationKeys.contains($0.key) }
    }

    func handled(_ body: JSON, _ exchange: Exchange, _ ops: any FlowOperations, carried: [String: JSON] = [:]) {
        guard let code = body["code"]?.stringValue else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) answered the handle phase of \(exchange.intent) without a \"code\""))
        }
        finish(code: code, response: body["response"], phase: .handle, opens: body["opens_intent"], carried: carried, exchange, ops)
    }
}
