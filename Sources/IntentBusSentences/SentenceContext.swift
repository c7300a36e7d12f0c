import IntentBusCore

/// hassil's context rules: `requires_context` and `excludes_context` against a request's
/// or a list value's context. A required value may be one value, a list of values, null
/// (any value, as long as there is one) or `{value, slot}`; a context value may be
/// `{value, text}`.
enum SentenceContext {
    static func unwrap(_ value: JSON?) -> JSON? {
        if case .object(let o)? = value { return o["value"] ?? .null }
        return value
    }

    /// Whether `context` satisfies `required`; with `allowMissing`, only keys present count.
    static func allows(_ required: [String: JSON], _ context: [String: JSON], allowMissing: Bool) -> Bool {
        for (key, want) in required {
            guard let have = context[key] else {
                if allowMissing { continue }
                return false
            }
            let actual = unwrap(have), wanted = unwrap(want)
            switch wanted {
            case .array(let options)?: if !options.contains(where: { $0 == actual }) { return false }
            case nil, .null?: continue
            case let w?: if actual != w { return false }
            }
        }
        return true
    }

    /// Whether `context` has none of the `excluded` values.
    static func excludes(_ excluded: [String: JSON], _ context: [String: JSON]) -> Bool {
        for (key, unwanted) in excluded {
            guard let have = context[key] else { continue }
            let actual = unwrap(have)
            switch unwrap(unwanted) {
            case .array(let options)?: if options.contains(where: { $0 == actual }) { return false }
            case let u?: if actual == u { return false }
            case nil: continue
            }
        }
        return true
    }

    /// The slots `required` copies from `context` (`slot: true` or a slot name), or nil
    /// when `context` does not satisfy it.
    static func copiedSlots(_ required: [String: JSON], _ context: [String: JSON]) -> [String: SentenceMatch.Slot]? {
        var out: [String: SentenceMatch.Slot] = [:]
        for (key, want) in required {
            var copyTo: String?
            var wanted = want
            if case .object(let o) = want {
                if case .string(let name)? = o["slot"] { copyTo = name } else if o["slot"] == .bool(true) { copyTo = key }
                wanted = o["value"] ?? .null
            }
            guard let have = context[key], case let actual? = unwrap(have), actual != .null else { return nil }
            switch wanted {
            case .null: break
            case .array(let options): guard options.contains(actual) else { return nil }
            default: guard actual == wanted else { return nil }
            }
            if let copyTo {
                let text: String = if case .object(let o) = have { o["text"]?.stringValue ?? "" } else { "" }
                out[copyTo] = SentenceMatch.Slot(value: actual, text: text, isWildcard: false)
            }
        }
        return out
    }
}
