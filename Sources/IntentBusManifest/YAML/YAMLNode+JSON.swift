import IntentBusCore

extension YAMLNode {
    /// The node as JSON, with YAML's core schema deciding numbers and booleans (a quoted
    /// `"1"` stays a string, a plain `1` is a number, `~` and `null` are null); a mapping's
    /// keys that are not scalars are dropped. For the YAML files whose values end up as
    /// JSON: a definition's defaults and Xcode bridge, a sentence file's slot values.
    package var json: JSON {
        switch content {
        case .scalar(let scalar):
            if isNull { return .null }
            if isUntypedPlainScalar {
                if let b = Bool(yamlCoreText: scalar.text) { return .bool(b) }
                if let i = Int(yamlCoreText: scalar.text) { return .int(Int64(i)) }
                if let d = Double(yamlCoreText: scalar.text) { return .double(d) }
            }
            return .string(scalar.text)
        case .sequence(let items):
            return .array(items.map(\.json))
        case .mapping(let pairs):
            var object: [String: JSON] = [:]
            for pair in pairs { if let key = pair.key.scalar?.text { object[key] = pair.value.json } }
            return .object(object)
        }
    }
}
