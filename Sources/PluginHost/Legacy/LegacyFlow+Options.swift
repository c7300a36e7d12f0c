import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata

/// Dynamic options (Xcode's "Options are provided dynamically", `dynamicOptions: true`):
/// before the host asks the user for such a parameter's value, it asks the plugin for
/// the options (phase `options`, docs/protocol.md §8.7) and offers them in the prompt, as
/// an enum's cases are. An option the user picks by its id becomes its value, which is
/// then resolved as any answer is. A plugin that answers no options, or an error, gets
/// the question asked without them: the user can still say a value.
extension LegacyFlow {
    /// At most this many options are offered; more are cut, with a warning.
    static let maximumOptions = 100

    /// Asks `question`, after fetching the plugin's options when its parameter has them.
    func ask(_ question: Question, _ exchange: Exchange, _ ops: any FlowOperations) {
        if case .value(let name, _) = question, definition.parameter(name)?.dynamicOptions == true {
            stage = .fetchingOptions(question)
            return ops.sendToPlugin(exchange, kind: .request, header: header(.options, exchange, extra: ["parameter": .string(name)]),
                                    body: parametersJSON)
        }
        stage = .asking(question)
        ops.promptClient(exchange, prompt: inLanguage(question.prompt))
    }

    /// The plugin's `{"options": [{"id", "title", "subtitle"?, "value"?}…]}` (nil: an error).
    func optionsArrived(_ question: Question, _ body: JSON?, _ exchange: Exchange, _ ops: any FlowOperations) {
        guard case .value(let name, let prompt) = question else { return }
        var fields = prompt.objectValue ?? [:]
        let given = body?["options"]?.arrayValue ?? []
        if body == nil || body?["options"]?.arrayValue == nil {
            ops.logger.warning("plugin \(pluginId) gave no options for \(exchange.intent).\(name) (dynamic options); asking without them")
        }
        var options: [JSON] = []
        var ids: Set<String> = []
        for option in given.prefix(Self.maximumOptions) {
            // Hostile input is normal input: only well-formed, bounded, unique options pass.
            guard let id = option["id"]?.stringValue, let title = option["title"]?.stringValue,
                  !id.isEmpty, id.utf8.count <= 256, title.utf8.count <= 1024, ids.insert(id).inserted else { continue }
            var o: [String: JSON] = ["id": .string(id), "title": .string(title)]
            if let subtitle = option["subtitle"]?.stringValue, subtitle.utf8.count <= 1024 { o["subtitle"] = .string(subtitle) }
            if let value = option["value"], !value.isNull { o["value"] = value }
            options.append(.object(o))
        }
        if given.count > Self.maximumOptions {
            ops.logger.warning("plugin \(pluginId) gave \(given.count) options for \(exchange.intent).\(name); offering the first \(Self.maximumOptions)")
        }
        if !options.isEmpty {
            fields["options"] = .array(options)
            fields["dynamic_options"] = true
        }
        let asked = Question.value(parameter: name, prompt: .object(fields))
        stage = .asking(asked)
        ops.promptClient(exchange, prompt: inLanguage(asked.prompt))
    }

    /// An answer that names a dynamic option by its id is that option's value.
    func optionValue(_ question: Question, _ answer: JSON) -> JSON {
        guard question.prompt["dynamic_options"] == true, let chosen = answer.stringValue,
              let option = question.prompt["options"]?.arrayValue?.first(where: { $0["id"]?.stringValue == chosen }) else { return answer }
        return option["value"] ?? answer
    }
}
