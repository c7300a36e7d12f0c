import Foundation
import IntentBus

/// Drives one legacy (SiriKit-style) request: resolve every parameter, ask the user
/// what resolution needs, resolve again, then confirm (when the plugin implements it),
/// then handle, and render the response code's dialog. The wire format of each phase
/// is docs/protocol.md §8.
///
/// One instance per exchange; every call happens on the router thread.
final class LegacyFlow: ExchangeFlow {
    /// What the host is waiting for.
    private enum Stage {
        case resolving([String])
        case confirming
        case handling
        /// A question to the client about one parameter.
        case asking(Question)
        /// The plugin asked the client something itself; the answer goes back to it.
        case relayingPluginPrompt(previous: Box)
    }

    /// Boxes a stage so the enum can refer to itself.
    private final class Box {
        let stage: Stage
        init(_ stage: Stage) { self.stage = stage }
    }

    private enum Question {
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

    private let definition: IntentDefinition
    private let pluginId: String
    private var parameters: [String: JSON] = [:]
    private var settled: Set<String> = []
    private var stage: Stage = .resolving([])
    private var rounds = 0

    init(definition: IntentDefinition, pluginId: String) {
        self.definition = definition
        self.pluginId = pluginId
    }

    // MARK: - ExchangeFlow

    func start(_ exchange: Exchange, body: Frame, _ ops: any FlowOperations) {
        let given: JSON
        do { given = try JSON.parse(body.data) } catch {
            return ops.fail(exchange, BusError(.invalidParameters, "the parameters (body) are \(error.message)"))
        }
        guard let object = given.objectValue else {
            return ops.fail(exchange, BusError(.invalidParameters, "the parameters must be a JSON object, got \(ParameterCoercion.describe(given))"))
        }
        if let error = validate(object) { return ops.fail(exchange, error) }
        resolve(definition.parameters.map(\.name), exchange, ops)
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
            ops.fail(exchange, BusError(json: body))
        case .prompt:
            stage = .relayingPluginPrompt(previous: Box(stage))
            ops.promptClient(exchange, prompt: body)
        case .reply:
            switch stage {
            case .resolving(let names): resolved(names, body, exchange, ops)
            case .confirming: confirmed(body, exchange, ops)
            case .handling: handled(body, exchange, ops)
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
            if answer.isNull { return reask(question, problem: "I need a value.", exchange, ops) }
            switch ParameterCoercion.coerce(answer, parameter, in: definition) {
            case .failure(let problem):
                return reask(question, problem: "\(parameter.displayName): \(problem.message).", exchange, ops)
            case .success(let value):
                parameters[name] = value
                settled.remove(name)
            }
        case .confirmation(let name, let value, _):
            let yes: Bool?
            switch answer {
            case .bool(let b): yes = b
            case .string(let s): yes = ["yes", "y", "true", "ja", "j"].contains(s.lowercased()) ? true
                : (["no", "n", "false", "nein"].contains(s.lowercased()) ? false : nil)
            default: yes = nil
            }
            guard let yes else { return reask(question, problem: "Please answer yes or no.", exchange, ops) }
            if yes {
                // A confirmed value is settled; resolving it again could ask again.
                parameters[name] = value
                settled.insert(name)
            } else {
                parameters[name] = nil
                settled.remove(name)
            }
        case .disambiguation(let name, let options, _):
            let chosen = answer.stringValue ?? answer.displayText
            guard let option = options.first(where: { $0["id"]?.stringValue == chosen }) else {
                let ids = options.compactMap { $0["id"]?.stringValue }.joined(separator: ", ")
                return reask(question, problem: "'\(chosen)' is not one of the options (\(ids)).", exchange, ops)
            }
            parameters[name] = option["value"] ?? option["id"]
            settled.remove(name)
        }
        continueResolving(exchange, ops)
    }

    // MARK: - Resolve

    /// Checks the client's parameters against the definition, normalizes them and fills
    /// in defaults. Returns the error for the client, or nil.
    private func validate(_ given: [String: JSON]) -> BusError? {
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
                problems.append(["parameter": .string(key), "problem": "unknown"])
                continue
            }
            if value.isNull { continue }
            switch ParameterCoercion.coerce(value, parameter, in: definition) {
            case .success(let normalized): parameters[key] = normalized
            case .failure(let problem):
                messages.append("parameter '\(key)' (\(parameter.type)): \(problem.message)")
                problems.append(["parameter": .string(key), "expected": .string(parameter.type.description),
                                 "problem": .string(problem.message)])
            }
        }
        guard messages.isEmpty else {
            return BusError(.invalidParameters, "\(definition.name): " + messages.joined(separator: "; "),
                            details: ["parameter": problems[0]["parameter"] ?? .null, "problems": .array(problems)])
        }
        for parameter in definition.parameters where parameters[parameter.name] == nil {
            if let value = parameter.defaultValue { parameters[parameter.name] = value }
        }
        return nil
    }

    private var parametersJSON: JSON { .object(parameters) }

    private func header(_ phase: String, _ exchange: Exchange, extra: [String: JSON] = [:]) -> JSON {
        var h = extra
        h["phase"] = .string(phase)
        h["style"] = "legacy"
        if let client = exchange.options["client"]?.stringValue { h["client"] = .string(client) }
        return .object(h)
    }

    private func resolve(_ names: [String], _ exchange: Exchange, _ ops: any FlowOperations) {
        guard !names.isEmpty else { return confirm(exchange, ops) }
        rounds += 1
        guard rounds <= Self.maximumResolveRounds else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) did not settle \(names.joined(separator: ", ")) after \(Self.maximumResolveRounds) rounds of resolution"))
        }
        stage = .resolving(names)
        ops.sendToPlugin(exchange, kind: .request,
                         header: header("resolve", exchange, extra: ["resolve": .array(names.map { .string($0) })]),
                         body: parametersJSON)
    }

    /// Resolves whatever is not settled yet, or moves on to confirm.
    private func continueResolving(_ exchange: Exchange, _ ops: any FlowOperations) {
        resolve(definition.parameters.map(\.name).filter { !settled.contains($0) }, exchange, ops)
    }

    private func resolved(_ names: [String], _ body: JSON, _ exchange: Exchange, _ ops: any FlowOperations) {
        guard let resolutions = body["resolutions"]?.objectValue else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) answered the resolve phase of \(exchange.intent) without a \"resolutions\" object"))
        }
        var question: Question?
        for name in names {
            guard let parameter = definition.parameter(name) else { continue }
            // A parameter the plugin does not resolve is taken as it is.
            let resolution = resolutions[name] ?? ["result": "success"]
            let result = resolution["result"]?.stringValue ?? ""
            let current = parameters[name]
            switch result {
            case "success":
                if let value = resolution["value"], !value.isNull {
                    switch ParameterCoercion.coerce(value, parameter, in: definition) {
                    case .success(let normalized): parameters[name] = normalized
                    case .failure(let problem):
                        return ops.fail(exchange, BusError(.pluginError,
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
            case "notRequired":
                settled.insert(name)
            case "needsValue":
                question = question ?? valueQuestion(parameter, unsupported: nil)
            case "unsupported":
                question = question ?? valueQuestion(parameter, unsupported: .some(resolution["reason"]?.stringValue))
            case "confirmationRequired":
                let value = resolution["value"].flatMap { $0.isNull ? nil : $0 } ?? current ?? .null
                if question == nil { question = confirmationQuestion(parameter, value: value) }
            case "disambiguation":
                guard let raw = resolution["options"]?.arrayValue, !raw.isEmpty else {
                    return ops.fail(exchange, BusError(.pluginError,
                        "plugin \(pluginId) asked to disambiguate \(name) without any options"))
                }
                if question == nil { question = disambiguationQuestion(parameter, options: raw) }
            default:
                return ops.fail(exchange, BusError(.pluginError,
                    "plugin \(pluginId) resolved \(name) with unknown result \"\(result)\" (success, needsValue, notRequired, unsupported, confirmationRequired, disambiguation)"))
            }
        }
        if let question {
            stage = .asking(question)
            ops.promptClient(exchange, prompt: question.prompt)
        } else {
            continueResolving(exchange, ops)
        }
    }

    // MARK: - Questions

    /// Values a parameter dialog can name: the parameter's own facts and the intent's
    /// current values.
    private func dialogValues(_ parameter: ParameterDefinition, value: JSON?, count: Int? = nil) -> [String: String] {
        let locale = definition.locale
        var values: [String: String] = [:]
        for (name, current) in parameters { values[name] = locale.text(current, as: definition.parameter(name)?.type) }
        values["displayName"] = parameter.displayName
        values["value"] = (value ?? parameters[parameter.name]).map { locale.text($0, as: parameter.type) } ?? ""
        if let minimum = parameter.minimum { values["minimumValue"] = locale.boundText(minimum, for: parameter.type) }
        if let maximum = parameter.maximum { values["maximumValue"] = locale.boundText(maximum, for: parameter.type) }
        if let count { values["count"] = String(count) }
        return values
    }

    private func render(_ template: String?, fallback: String, _ values: [String: String]) -> String {
        FormatString(template ?? fallback).render(values).text
    }

    /// `unsupported` is nil for needsValue, `.some(reason)` for unsupported.
    private func valueQuestion(_ parameter: ParameterDefinition, unsupported: String??) -> Question {
        let values = dialogValues(parameter, value: nil)
        var dialog = render(parameter.prompts.primary, fallback: "What is the ${displayName}?", values)
        var prompt: [String: JSON] = ["kind": "value", "parameter": .string(parameter.name),
                                      "type": .string(parameter.type.description)]
        if parameter.multiple { prompt["multiple"] = true }
        if let unsupported {
            let reason = unsupported.flatMap { code in parameter.unsupportedReasons.first { $0.code == code } }
            let text = render(reason?.formatString, fallback: "That ${displayName} isn't supported.", values)
            dialog = text + " " + dialog
            var info: [String: JSON] = ["dialog": .string(text)]
            if let code = unsupported { info["reason"] = .string(code) }
            prompt["unsupported"] = .object(info)
        }
        if case .enumeration(let name) = parameter.type, let cases = definition.enums[name]?.cases {
            prompt["options"] = .array(cases.map { ["id": .string($0.name), "title": .string($0.displayName)] })
        }
        if let minimum = parameter.minimum { prompt["minimum"] = .double(minimum) }
        if let maximum = parameter.maximum { prompt["maximum"] = .double(maximum) }
        prompt["dialog"] = .string(dialog)
        return .value(parameter: parameter.name, prompt: .object(prompt))
    }

    private func confirmationQuestion(_ parameter: ParameterDefinition, value: JSON) -> Question {
        let dialog = render(parameter.prompts.confirmation, fallback: "Just to confirm, you wanted ‘${value}’?",
                            dialogValues(parameter, value: value))
        return .confirmation(parameter: parameter.name, value: value,
                             prompt: ["kind": "confirmation", "parameter": .string(parameter.name),
                                      "dialog": .string(dialog), "value": value])
    }

    private func disambiguationQuestion(_ parameter: ParameterDefinition, options raw: [JSON]) -> Question {
        let options: [JSON] = raw.enumerated().map { index, option in
            var o = option.objectValue ?? ["value": option]
            let id = o["id"]?.stringValue ?? String(index + 1)
            o["id"] = .string(id)
            if o["title"]?.stringValue == nil {
                o["title"] = .string(o["value"].map { definition.locale.text($0, as: parameter.type) } ?? id)
            }
            return .object(o)
        }
        let values = dialogValues(parameter, value: nil, count: options.count)
        let introduction = render(parameter.prompts.disambiguationIntroduction,
                                  fallback: "There are ${count} options matching ‘${value}’.", values)
        let selection = render(parameter.prompts.disambiguationSelection, fallback: "Which one?", values)
        let prompt: JSON = ["kind": "disambiguation", "parameter": .string(parameter.name),
                            "dialog": .string(introduction + " " + selection),
                            "options": .array(options.map { option in
                                // The client sees what to show and what to answer, not the values.
                                var shown: [String: JSON] = ["id": option["id"]!, "title": option["title"]!]
                                if let subtitle = option["subtitle"] { shown["subtitle"] = subtitle }
                                return .object(shown)
                            })]
        return .disambiguation(parameter: parameter.name, options: options, prompt: prompt)
    }

    /// Asks the same question again, prefixed with what was wrong with the answer.
    private func reask(_ question: Question, problem: String, _ exchange: Exchange, _ ops: any FlowOperations) {
        var prompt = question.prompt.objectValue ?? [:]
        prompt["dialog"] = .string(problem + " " + (prompt["dialog"]?.stringValue ?? ""))
        prompt["problem"] = .string(problem)
        ops.promptClient(exchange, prompt: .object(prompt))
    }

    // MARK: - Confirm and handle

    private var codeNames: JSON { .array(definition.codes.map { .string($0.name) }) }

    private func confirm(_ exchange: Exchange, _ ops: any FlowOperations) {
        stage = .confirming
        ops.sendToPlugin(exchange, kind: .request, header: header("confirm", exchange, extra: ["codes": codeNames]),
                         body: parametersJSON)
    }

    private func confirmed(_ body: JSON, _ exchange: Exchange, _ ops: any FlowOperations) {
        if body["implemented"]?.boolValue == false {
            ops.logger.debug("request \(exchange.clientRequestId) (\(exchange.intent)): confirm not implemented by \(pluginId); handling")
            return handle(exchange, ops)
        }
        guard let code = body["code"]?.stringValue else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) answered the confirm phase of \(exchange.intent) without a \"code\" (or \"implemented\": false)"))
        }
        if code == "ready" {
            ops.logger.debug("request \(exchange.clientRequestId) (\(exchange.intent)): confirmed ready by \(pluginId)")
            return handle(exchange, ops)
        }
        finish(code: code, response: body["response"], phase: "confirm", exchange, ops)
    }

    private func handle(_ exchange: Exchange, _ ops: any FlowOperations) {
        stage = .handling
        ops.sendToPlugin(exchange, kind: .request, header: header("handle", exchange, extra: ["codes": codeNames]),
                         body: parametersJSON)
    }

    private func handled(_ body: JSON, _ exchange: Exchange, _ ops: any FlowOperations) {
        guard let code = body["code"]?.stringValue else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) answered the handle phase of \(exchange.intent) without a \"code\""))
        }
        finish(code: code, response: body["response"], phase: "handle", opens: body["opens_intent"], exchange, ops)
    }

    /// Ends the request with the code's rendered dialog; an undeclared code is the
    /// plugin's bug and ends it with `plugin_error` naming the declared codes.
    private func finish(code name: String, response: JSON?, phase: String, opens: JSON? = nil,
                        _ exchange: Exchange, _ ops: any FlowOperations) {
        guard let code = definition.code(name) else {
            return ops.fail(exchange, BusError(.pluginError,
                "plugin \(pluginId) answered \(exchange.intent) (\(phase)) with response code '\(name)', which its definition does not declare (declared: \(definition.codes.map(\.name).joined(separator: ", ")))",
                details: ["plugin": .string(pluginId), "code": .string(name)]))
        }
        let values = response?.objectValue ?? [:]
        let undeclared = values.keys.filter { key in !definition.responseParameters.contains { $0.name == key } }
        if !undeclared.isEmpty {
            ops.logger.warning("plugin \(pluginId) returned response parameters \(undeclared.sorted().joined(separator: ", ")) that \(exchange.intent) does not declare")
        }
        var texts: [String: String] = [:]
        for (key, value) in values {
            texts[key] = definition.locale.text(value, as: definition.responseParameters.first { $0.name == key }?.type)
        }
        let full = FormatString(code.formatString ?? GenericResponseCodes.defaultDialog(code.name) ?? "").render(texts)
        let concise = code.conciseFormatString.map { FormatString($0).render(texts) } ?? full
        let missing = Set(full.missing + concise.missing)
        if !missing.isEmpty {
            ops.logger.warning("plugin \(pluginId) answered \(exchange.intent) with \(name) but gave no \(missing.sorted().joined(separator: ", ")) for its dialog")
        }
        let status = code.success ? "success" : "failure"
        var body: [String: JSON] = ["code": .string(name), "code_value": .int(Int64(code.value)), "success": .bool(code.success),
                                    "dialog": .string(full.text), "concise_dialog": .string(concise.text),
                                    "response": .object(values), "parameters": parametersJSON]
        if let opens { body["opens_intent"] = opens }  // continueInApp handing over (RouterCore+LeadOn)
        ops.finish(exchange, header: ["status": .string(status), "plugin": .string(pluginId), "code": .string(name)],
                   body: .object(body))
    }
}

/// Answers a legacy request whose intent has no definition: the plugin can't be
/// driven without one, and saying so beats a silent guess.
final class MissingDefinitionFlow: ExchangeFlow {
    private let pluginId: String
    init(pluginId: String) { self.pluginId = pluginId }

    func start(_ exchange: Exchange, body: Frame, _ ops: any FlowOperations) {
        ops.fail(exchange, BusError(.pluginError,
            "plugin \(pluginId) handles \(exchange.intent) in the legacy style, but \(exchange.intent) has no intent definition: list its definition file under the plugin's 'definitions:' in the manifest (built-in standard intents: \(StandardIntents.names.joined(separator: ", ")))",
            details: ["plugin": .string(pluginId)]))
    }

    func pluginMessage(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {}
    func clientAnswer(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {}
}
