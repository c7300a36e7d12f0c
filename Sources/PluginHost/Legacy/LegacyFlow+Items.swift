import Foundation
import IntentBusCore
import IntentBusDefinitions

/// What a legacy flow remembers about the items of a list (`multiple`) parameter.
struct ListItemState {
    /// The index of the item the open question is about; nil for a whole-parameter question.
    var asking: Int?
    /// Item values the user confirmed, by parameter: a plugin that asks again about one of
    /// them is taken as satisfied, as a confirmed single value is settled.
    var confirmed: [String: [JSON]] = [:]
}

/// List parameters in the legacy flow: a plugin may resolve a `multiple` parameter with
/// one resolution result per item, in the order of the items (SiriKit's
/// `resolveRecipients(for:)` returns `[INSendMessageRecipientResolutionResult]`). The
/// host asks about each item that needs it, one at a time and in order, puts the answer
/// in that item's place and resolves the list again (docs/protocol.md §8.3).
extension LegacyFlow {
    /// The one result that speaks for the whole parameter, when the list is still empty
    /// and the plugin answered a list of one (`[needsValue]` for "no recipients yet").
    func wholeListResolution(_ parameter: ParameterDefinition, _ results: [JSON]) -> JSON? {
        let current = parameters[parameter.name]?.arrayValue ?? []
        // (Not a ternary: JSON is ExpressibleByNilLiteral, and `nil` there would be JSON.null.)
        guard current.isEmpty, results.count == 1 else { return Optional<JSON>.none }
        return results[0]
    }

    /// Applies one result per item. Returns the question about the first item that needs
    /// the user (nil when none does), or the plugin's mistake.
    func resolvedItems(_ parameter: ParameterDefinition, _ results: [JSON]) -> Result<Question?, BusError> {
        let name = parameter.name
        let current = parameters[name]?.arrayValue ?? []
        guard results.count == current.count else {
            return .failure(BusError(.pluginError,
                "plugin \(pluginId) resolved \(name) with \(results.count) result\(results.count == 1 ? "" : "s") for a list of \(current.count) item\(current.count == 1 ? "" : "s") (one result per item, in order)"))
        }
        var kept: [JSON] = []
        var need: (index: Int, resolution: JSON, item: JSON)?
        for (item, resolution) in zip(current, results) {
            let result = resolution["result"]?.stringValue ?? ""
            guard let kind = ResolutionKind(rawValue: result) else {
                return .failure(BusError(.pluginError,
                    "plugin \(pluginId) resolved an item of \(name) with unknown result \"\(result)\" (\(ResolutionKind.words))"))
            }
            switch kind {
            case .success:
                guard let value = resolution["value"] else { kept.append(item); continue }
                if value.isNull { continue }  // the plugin dropped the item
                switch ParameterCoercion.coerce(value, parameter, in: definition) {
                case .success(let normalized): kept += normalized.arrayValue ?? [normalized]
                case .failure(let problem):
                    return .failure(BusError(.pluginError,
                        "plugin \(pluginId) resolved an item of \(name) to a value that does not fit its definition: \(problem.message)"))
                }
            case .notRequired:
                kept.append(item)
            case .confirmationRequired where items.confirmed[name, default: []].contains(resolution["value"] ?? item):
                kept.append(resolution["value"] ?? item)
            case .needsValue, .unsupported, .confirmationRequired, .disambiguation:
                if need == nil { need = (kept.count, resolution, item) }
                kept.append(item)
            }
        }
        parameters[name] = kept.isEmpty ? Optional<JSON>.none : .array(kept)
        guard let need else {
            if parameter.required, kept.isEmpty { return .success(valueQuestion(parameter, unsupported: nil)) }
            settled.insert(name)
            return .success(nil)
        }
        return itemQuestion(parameter, need.index, need.resolution, need.item).map { .some($0) }
    }

    /// The question about one item, marked with its position (`item`, 0-based) and the
    /// list's length (`items`).
    private func itemQuestion(_ parameter: ParameterDefinition, _ index: Int, _ resolution: JSON,
                              _ item: JSON) -> Result<Question, BusError> {
        let question: Question
        switch resolution["result"]?.stringValue.flatMap(ResolutionKind.init(rawValue:)) {
        case .needsValue?:
            question = valueQuestion(parameter, unsupported: nil)
        case .unsupported?:
            question = valueQuestion(parameter, unsupported: .some(resolution["reason"]?.stringValue))
        case .confirmationRequired?:
            question = confirmationQuestion(parameter, value: resolution["value"].flatMap { $0.isNull ? nil : $0 } ?? item)
        default:
            guard let options = resolution["options"]?.arrayValue, !options.isEmpty else {
                return .failure(BusError(.pluginError,
                    "plugin \(pluginId) asked to disambiguate an item of \(parameter.name) without any options"))
            }
            question = disambiguationQuestion(parameter, options: options, value: item)
        }
        var prompt = question.prompt.objectValue ?? [:]
        prompt["item"] = .int(Int64(index))
        prompt["items"] = .int(Int64(parameters[parameter.name]?.arrayValue?.count ?? 0))
        prompt["multiple"] = nil  // the answer is one item
        if case .value = question {
            // "${value}" in an item's question is that item, not the whole list.
            prompt["item_value"] = item
        }
        switch question {
        case .value(let name, _): return .success(.value(parameter: name, prompt: .object(prompt)))
        case .confirmation(let name, let value, _): return .success(.confirmation(parameter: name, value: value, prompt: .object(prompt)))
        case .disambiguation(let name, let options, _): return .success(.disambiguation(parameter: name, options: options, prompt: .object(prompt)))
        }
    }

    /// Stores the client's answer: in place of the item asked about, or as the whole
    /// parameter. `settle` is true for a confirmed value.
    func answered(_ name: String, _ value: JSON?, settle: Bool) {
        defer { items.asking = nil }
        if let index = items.asking, var list = parameters[name]?.arrayValue, list.indices.contains(index) {
            let replacement = value.map { $0.arrayValue ?? [$0] }?.filter { !$0.isNull } ?? []
            list.replaceSubrange(index...index, with: replacement)
            if settle, let value { items.confirmed[name, default: []].append(value) }
            parameters[name] = list.isEmpty ? Optional<JSON>.none : .array(list)
            // The list is resolved again as a whole; the other items may still need the user.
            settled.remove(name)
            return
        }
        parameters[name] = value
        if settle { settled.insert(name) } else { settled.remove(name) }
    }
}
