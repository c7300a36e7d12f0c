import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata
import IntentBusDefinitions

/// Drives one request for a new-style intent (docs/protocol.md "New-style metadata"):
///
/// 1. checks authentication, maps a migrated legacy request's parameters by name and
///    type (the legacy definition's declared types when the host has it; reporting the
///    rest), checks every given value's type and range, applies
///    defaults, and asks the client for each required parameter still missing, one
///    PROMPT at a time;
/// 2. sends the REQUEST (`style: new`) with the checked parameters;
/// 3. relays the plugin's PROMPT / PROGRESS / REPLY / ERROR, checking the client's
///    answers to the plugin's questions against the parameter they are about.
///
/// A needs-value restart is the plugin SDK's business: the plugin asks with an ordinary
/// value PROMPT and runs perform() again itself; the host relays it like any question.
///
/// Owned by the router thread, one instance per exchange.
final class NewStyleFlow: ExchangeFlow {
    private let intent: NewStyleIntent
    private let catalog: NewStyleCatalog
    /// The legacy name the client used, when this request reaches a migrated intent.
    private let migratedFrom: String?
    /// The legacy intent's definition, when the host has one: migration then maps
    /// parameters by their declared types.
    private let legacyDefinition: IntentDefinition?
    private let access: AuthenticationPolicy.Access
    private var values: [String: JSON] = [:]
    /// Parameters of a migrated request that did not map, with the reason.
    private var unmapped: [JSON] = []
    private var toAsk: [NewStyleParameter] = []
    /// The parameter the host itself asked the client for.
    private var hostQuestion: NewStyleParameter?
    /// The last PROMPT body the plugin sent, to check the client's answer to it.
    private var pluginQuestion: JSON?
    /// The client's body, when the checks left every value as given: the REQUEST then
    /// carries this frame itself instead of the same parameters written again
    /// (docs/performance.md, "perform() again").
    private var unchangedBody: Frame?

    init(intent: NewStyleIntent, catalog: NewStyleCatalog, migratedFrom: String?, legacyDefinition: IntentDefinition? = nil,
         access: AuthenticationPolicy.Access) {
        self.intent = intent
        self.catalog = catalog
        self.migratedFrom = migratedFrom
        self.legacyDefinition = legacyDefinition
        self.access = access
    }

    func start(_ exchange: Exchange, body: Frame, _ ops: any FlowOperations) {
        // An unknown policy is refused at HELLO, and decodes as requires_authentication: closed.
        if let error = intent.authentication.problem(intent: intent.identifier, options: exchange.options, access: access) {
            return ops.fail(exchange, error)
        }
        let parsed: JSON
        do { parsed = try JSON.parse(body.data) } catch {
            return ops.fail(exchange, BusError(.invalidParameters, "\(exchange.intent) is a new-style (App Intents) intent, which takes its parameters as a JSON object; the body is not JSON: \(error.message)"))
        }
        guard var given = parsed.objectValue else {
            return ops.fail(exchange, BusError(.invalidParameters, "the parameters must be a JSON object, got \(parsed.typeName)"))
        }
        if let legacy = migratedFrom {
            given = mapLegacy(given, legacy: legacy)
        } else {
            let declared = Set(intent.parameters.map(\.name))
            if let unknown = given.keys.sorted().first(where: { !declared.contains($0) }) {
                return ops.fail(exchange, BusError(.invalidParameters,
                    "\(intent.identifier) has no parameter \"\(unknown)\" (it has: \(intent.parameters.map(\.name).joined(separator: ", ")))",
                    details: PromptVocabulary.details(intent: intent.identifier,
                                                      problems: [PromptVocabulary.problem(unknown, expected: nil, "unknown")])))
            }
        }
        // Unchanged: not migrated, and every given value checked to itself; a dropped null,
        // a default or a question changes the body.
        var unchanged = migratedFrom == nil
        for p in intent.parameters {
            if let value = given[p.name], !value.isNull {
                switch ParameterCheck.check(value, p, catalog: catalog) {
                case .success(let v):
                    values[p.name] = v
                    if v != value { unchanged = false }
                case .failure(let why): return ops.fail(exchange, invalid(p, why))
                }
            } else {
                if given[p.name] != nil { unchanged = false }
                if let d = p.defaultValue {
                    values[p.name] = d
                    unchanged = false
                } else if !p.optional {
                    toAsk.append(p)
                }
            }
        }
        if unchanged, toAsk.isEmpty { unchangedBody = body }
        askNextOrPerform(exchange, ops)
    }

    /// Keeps the legacy parameters that match a new parameter by name and type (the type
    /// the legacy definition declares, when there is one: `MigrationMapping`); reports
    /// the others in `unmapped`.
    private func mapLegacy(_ given: [String: JSON], legacy: String) -> [String: JSON] {
        var mapped: [String: JSON] = [:]
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let p = intent.parameters.first(where: { $0.name == name }) else {
                unmapped.append(["name": .string(name), "value": value,
                                 "reason": .string("\(intent.identifier) has no parameter \"\(name)\"")])
                continue
            }
            switch MigrationMapping.map(value, legacy: legacyDefinition?.parameter(name), of: legacyDefinition,
                                        to: p, of: intent, catalog: catalog) {
            case .success(let v): mapped[name] = v
            case .failure(let why):
                unmapped.append(["name": .string(name), "value": value, "reason": .string(why.message)])
            }
        }
        return mapped
    }

    private func askNextOrPerform(_ exchange: Exchange, _ ops: any FlowOperations) {
        if !toAsk.isEmpty {
            let p = toAsk.removeFirst()
            hostQuestion = p
            return ops.promptClient(exchange, prompt: valuePrompt(p))
        }
        var header: [String: JSON] = ["style": "new"]
        if let client = exchange.options["client"]?.stringValue { header["client"] = .string(client) }
        // The client's language, for the plugin's string tables (LocalizedStringResource).
        if let locale = exchange.options["locale"]?.stringValue { header["locale"] = .string(locale) }
        RequestContext.deliver(from: exchange.options, into: &header)
        RunKey.deliver(from: exchange.options, into: &header)
        if let migratedFrom { header["migrated_from"] = .string(migratedFrom) }
        if let body = unchangedBody {
            unchangedBody = nil
            return ops.sendToPlugin(exchange, kind: .request, header: .object(header), forwarding: body)
        }
        ops.sendToPlugin(exchange, kind: .request, header: .object(header), body: .object(values))
    }

    private func valuePrompt(_ p: NewStyleParameter) -> JSON {
        // type, type_title, multiple, range, options, entity: the fields both styles share.
        var prompt = PromptVocabulary.fields(p, catalog: catalog)
        prompt["kind"] = "value"
        prompt["parameter"] = .string(p.name)
        prompt["dialog"] = .string(p.requestValueDialog ?? "What is the \(p.title.lowercased())?")
        // For a client that draws a control or a keyboard for the answer.
        if let style = p.controlStyle { prompt["control_style"] = .string(style) }
        if let options = p.inputOptions { prompt["input_options"] = options }
        // The intent's parameter summary with the values known so far: what the answer completes.
        if let summary = intent.summary?.filled(values, titles: Dictionary(intent.parameters.map { ($0.name, $0.title) }) { a, _ in a }) {
            prompt["summary"] = .string(summary)
        }
        return .object(prompt)
    }

    func pluginMessage(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {
        if message.kind == .reply { return finishReply(message, exchange, ops) }
        let body = (try? message.bodyJSON()) ?? .object([:])
        switch message.kind {
        case .prompt:
            pluginQuestion = body
            ops.promptClient(exchange, prompt: body)
        case .progress:
            ops.progressToClient(exchange, body: body)
        case .error:
            ops.fail(exchange, BusError(json: body))
        default:
            break
        }
    }

    /// The plugin's REPLY goes to the client itself: its body unread (as on the plain
    /// path), its header as written when it has a status and no migration note is due,
    /// else the header with them.
    private func finishReply(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {
        let parsed = (try? message.headerJSON())?.objectValue
        if migratedFrom == nil, let parsed, parsed["status"] != nil { return ops.finish(exchange, forwarding: message) }
        var header = parsed ?? [:]
        if let migratedFrom {
            header["migrated_from"] = .string(migratedFrom)
            header["handled_by"] = .string(intent.identifier)
            if !unmapped.isEmpty {
                header["unmapped_parameters"] = .array(unmapped)
                let names = unmapped.compactMap { $0["name"]?.stringValue }.joined(separator: ", ")
                ops.logger.warning("request \(exchange.clientRequestId): \(migratedFrom) → \(intent.identifier): parameters not mapped: \(names)")
            }
        }
        if header["status"] == nil { header["status"] = "success" }
        message.header = Frame(json: .object(header))
        ops.finish(exchange, forwarding: message)
    }

    func clientAnswer(_ message: WireMessage, _ exchange: Exchange, _ ops: any FlowOperations) {
        let body = (try? message.bodyJSON()) ?? .object([:])
        let value = body["value"] ?? .null
        if let p = hostQuestion {
            hostQuestion = nil
            switch ParameterCheck.check(value, p, catalog: catalog) {
            case .success(let v):
                values[p.name] = v
                askNextOrPerform(exchange, ops)
            case .failure(let why):
                ops.fail(exchange, invalid(p, why))
            }
            return
        }
        var answer = body
        if let question = pluginQuestion {
            pluginQuestion = nil
            switch checkAnswer(value, to: question) {
            case .success(let v): answer = body.objectValue.map { o in .object(o.merging(["value": v]) { $1 }) } ?? ["value": v]
            case .failure(let error):
                ops.sendToPlugin(exchange, kind: .cancel, header: nil, body: ["reason": .string("invalid answer: \(error.message)")])
                return ops.fail(exchange, error)
            }
        }
        ops.sendToPlugin(exchange, kind: .answer, header: nil, body: answer)
    }

    /// Checks the client's answer to a question the plugin asked mid-perform.
    private func checkAnswer(_ value: JSON, to question: JSON) -> Result<JSON, BusError> {
        switch question["kind"]?.stringValue.flatMap(PromptKind.init(rawValue:)) ?? .value {
        case .confirmation:
            if let b = value.boolValue { return .success(.bool(b)) }
            return .failure(BusError(.invalidParameters, "the answer to a confirmation is true or false, got \(value.typeName)"))
        case .disambiguation:
            let ids = (question["options"]?.arrayValue ?? []).compactMap { $0["id"]?.displayText }
            if ids.contains(value.displayText), !value.isNull { return .success(value) }
            return .failure(BusError(.invalidParameters, "the answer must be one of the offered options (\(ids.joined(separator: ", "))), got \(value.displayText.isEmpty ? value.typeName : value.displayText)",
                                     details: question["parameter"].map { ["parameter": $0] } ?? .object([:])))
        default:
            guard let name = question["parameter"]?.stringValue,
                  let p = intent.parameters.first(where: { $0.name == name }) else { return .success(value) }
            return ParameterCheck.check(value, p, catalog: catalog).mapError { invalid(p, $0) }
        }
    }

    private func invalid(_ p: NewStyleParameter, _ why: ParameterProblem) -> BusError {
        BusError(.invalidParameters, "parameter \(p.name) (\(p.title)) of \(intent.identifier): \(why)",
                 details: PromptVocabulary.details(intent: intent.identifier, problems: [
                     PromptVocabulary.problem(p.name, expected: PromptVocabulary.typeName(p), why.message)]))
    }
}
