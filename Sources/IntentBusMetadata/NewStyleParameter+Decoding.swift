import IntentBusCore

extension NewStyleParameter {
    /// Decodes and checks entry `index` of intent `intent`'s parameters, appending every
    /// problem to `problems`. Nil when it has no name or an unknown type (the problem
    /// says so); otherwise the parameter, even when it has other problems.
    static func decode(_ p: JSON, index: Int, intent: String, entities: [String: NewStyleEntity],
                       enums: [String: NewStyleEnum], checks: some NewStyleHostChecks,
                       problems: inout [String]) -> NewStyleParameter? {
        guard let name = p["name"]?.stringValue, !name.isEmpty else {
            problems.append("\(intent): parameter #\(index + 1) has no name"); return nil
        }
        let at = "\(intent).\(name)"
        let title = p["title"]?.stringValue ?? ""
        if title.isEmpty { problems.append("\(at): parameter has no title (App Intents' rule: every @Parameter has a title)") }
        let typeName = p["type"]?.stringValue ?? ""
        guard let type = ValueType(rawValue: typeName) else {
            problems.append("\(at): unknown type \"\(typeName)\" (\(ValueType.names))"); return nil
        }
        let entity = p["entity"]?.stringValue
        let enumName = p["enum"]?.stringValue
        switch type {
        case .entity:
            if let entity {
                if entities[entity] == nil { problems.append("\(at): entity type \(entity) is not declared in entities") }
            } else {
                problems.append("\(at): an entity parameter names its entity type (\"entity\")")
            }
        case .enumeration:
            if let enumName {
                if enums[enumName] == nil { problems.append("\(at): enum \(enumName) is not declared in enums") }
            } else {
                problems.append("\(at): an enum parameter names its enum (\"enum\")")
            }
        case .integer, .decimal, .boolean, .string, .date, .url:
            break
        }
        var decl = NewStyleParameter(name: name, title: title, type: type, entity: entity, enumName: enumName,
                                     optional: p["optional"]?.boolValue == true,
                                     defaultValue: p["default"].flatMap { $0.isNull ? nil : $0 },
                                     min: p["min"], max: p["max"], requestValueDialog: p["request_value_dialog"]?.stringValue,
                                     description: p["description"]?.stringValue)
        if let multiple = p["multiple"], !multiple.isNull {
            if let flag = multiple.boolValue { decl.multiple = flag } else { problems.append("\(at): multiple must be true or false") }
        }
        if let problem = decl.rangeProblem { problems.append("\(at): \(problem)") }
        decodePresentation(p, into: &decl, at: at, problems: &problems)
        if let d = decl.defaultValue {
            switch checks.checkDefault(d, of: decl, enums: enums) {
            case .failure(let why): problems.append("\(at): default \(d.canonicalString) is invalid: \(why)")
            case .success(let value):
                if !decl.inRange(value) {
                    problems.append("\(at): default \(value.displayText) is outside its range \(decl.rangeText)")
                }
            }
        }
        return decl
    }

    /// Reads `control_style` (numbers) and `input_options` (text), keeping only the keys
    /// and values clients are told about (docs/protocol.md §9.1).
    private static func decodePresentation(_ p: JSON, into decl: inout NewStyleParameter, at: String, problems: inout [String]) {
        if let style = p["control_style"], !style.isNull {
            if !decl.type.isNumeric {
                problems.append("\(at): control_style is for integer and decimal parameters, not \(decl.type)")
            } else if let name = style.stringValue, controlStyles.contains(name) {
                decl.controlStyle = name
            } else {
                problems.append("\(at): control_style is one of \(controlStyles.sorted().joined(separator: ", ")), got \(style.displayText.prefix(40))")
            }
        }
        guard let options = p["input_options"], !options.isNull else { return }
        guard decl.type == .string, let given = options.objectValue else {
            problems.append("\(at): input_options is an object, and only for string parameters"); return
        }
        var kept: [String: JSON] = [:]
        for (key, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let allowed = inputOptionKeys[key] else {
                problems.append("\(at): input_options has no key \(key.prefix(40)) (\(inputOptionKeys.keys.sorted().joined(separator: ", ")))"); continue
            }
            if let names = allowed {
                guard let name = value.stringValue, names.contains(name) else {
                    problems.append("\(at): input_options.\(key) is one of \(names.sorted().joined(separator: ", "))"); continue
                }
            } else if value.boolValue == nil {
                problems.append("\(at): input_options.\(key) is true or false"); continue
            }
            kept[key] = value
        }
        decl.inputOptions = .object(kept)
    }

    /// What is wrong with the declared range, or nil: a range on a type that is not a
    /// number, bounds that are not numbers, or min > max.
    var rangeProblem: String? {
        guard min != nil || max != nil else { return nil }
        guard type.isNumeric else {
            let why = switch type {
            case .date: " (date parameters have no ranges: a bound on a date needs the user's time zone and today's date, which the host does not have; check dates in perform())"
            case .url: " (date and url parameters have no ranges)"
            default: ""
            }
            return "a range needs a numeric type, not \(type)" + why
        }
        if (min.map { $0.doubleValue == nil } ?? false) || (max.map { $0.doubleValue == nil } ?? false) {
            return "range bounds must be numbers"
        }
        if let lo = min?.doubleValue, let hi = max?.doubleValue, lo > hi {
            return "range \(rangeText) is empty (min > max)"
        }
        return nil
    }
}
