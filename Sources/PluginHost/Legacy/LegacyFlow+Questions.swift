import Foundation
import IntentBusCore
import IntentBusDefinitions

/// The questions the legacy flow asks the client: values, confirmations, disambiguations
/// (LegacyFlow.swift drives the phases).
extension LegacyFlow {
    // MARK: - Questions

    /// Values a parameter dialog can name: the parameter's own facts and the intent's
    /// current values.
    func dialogValues(_ parameter: ParameterDefinition, value: JSON?, count: Int? = nil) -> [String: String] {
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

    func render(_ template: String?, fallback: String, _ values: [String: String]) -> String {
        FormatString(template ?? fallback).render(values).text
    }

    /// `unsupported` is nil for needsValue, `.some(reason)` for unsupported.
    func valueQuestion(_ parameter: ParameterDefinition, unsupported: String??) -> Question {
        let values = dialogValues(parameter, value: nil)
        var dialog = render(parameter.prompts.primary, fallback: "What is the ${displayName}?", values)
        // type, type_title, multiple, range, options: the fields both styles share.
        var prompt = PromptVocabulary.fields(parameter, in: definition)
        prompt["kind"] = PromptKind.value.json
        prompt["parameter"] = .string(parameter.name)
        if let unsupported {
            let reason = unsupported.flatMap { code in parameter.unsupportedReasons.first { $0.code == code } }
            let text = render(reason?.formatString, fallback: "That ${displayName} isn't supported.", values)
            dialog = text + " " + dialog
            var info: [String: JSON] = ["dialog": .string(text)]
            if let code = unsupported { info["reason"] = .string(code) }
            prompt["unsupported"] = .object(info)
        }
        prompt["dialog"] = .string(dialog)
        return .value(parameter: parameter.name, prompt: .object(prompt))
    }

    func confirmationQuestion(_ parameter: ParameterDefinition, value: JSON) -> Question {
        let dialog = render(parameter.prompts.confirmation, fallback: "Just to confirm, you wanted ‘${value}’?",
                            dialogValues(parameter, value: value))
        return .confirmation(parameter: parameter.name, value: value,
                             prompt: ["kind": PromptKind.confirmation.json, "parameter": .string(parameter.name),
                                      "dialog": .string(dialog), "value": value])
    }

    func disambiguationQuestion(_ parameter: ParameterDefinition, options raw: [JSON], value: JSON? = nil) -> Question {
        let options: [JSON] = raw.enumerated().map { index, option in
            var o = option.objectValue ?? ["value": option]
            let id = o["id"]?.stringValue ?? String(index + 1)
            o["id"] = .string(id)
            if o["title"]?.stringValue == nil {
                o["title"] = .string(o["value"].map { definition.locale.text($0, as: parameter.type) } ?? id)
            }
            return .object(o)
        }
        let values = dialogValues(parameter, value: value, count: options.count)
        let introduction = render(parameter.prompts.disambiguationIntroduction,
                                  fallback: "There are ${count} options matching ‘${value}’.", values)
        let selection = render(parameter.prompts.disambiguationSelection, fallback: "Which one?", values)
        let prompt: JSON = ["kind": PromptKind.disambiguation.json, "parameter": .string(parameter.name),
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
    func reask(_ question: Question, problem: String, _ exchange: Exchange, _ ops: any FlowOperations) {
        // The new problem replaces an earlier reason (PromptVocabulary+Reask.swift).
        ops.promptClient(exchange, prompt: inLanguage(PromptVocabulary.reasked(question.prompt, problem: problem)))
    }

    /// A host-made question names the language of its dialog (the definition's `locale`)
    /// when it is not English, so that a client writes its own words around it in that
    /// language (§4.4); English, what clients assume, is not named.
    func inLanguage(_ prompt: JSON) -> JSON {
        guard case .object(var fields) = prompt, let language = definition.locale.language, language != "en" else { return prompt }
        fields["language"] = .string(language)
        return .object(fields)
    }
}
