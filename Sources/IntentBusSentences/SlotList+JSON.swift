import IntentBusCore

/// Lists written as JSON: a plugin's HELLO (an app shortcut's `lists`, docs/shortcuts.md)
/// and the range of a sentence file's list (whose YAML the loader turns into JSON). Every
/// number and size comes from outside, so each is range-checked.
extension SlotList {
    /// At most this many values in one list.
    package static let maximumValues = 1_000

    /// `{"values": [text | {"in": template, "out": value}]}`, `{"range": {from, to, step?,
    /// multiplier?, fractions?}}` or `{"wildcard": true}`.
    package init(json: JSON, at location: SentenceLocation) throws(SentenceError) {
        if let values = json["values"] {
            guard let items = values.arrayValue, !items.isEmpty, items.count <= Self.maximumValues else {
                throw SentenceError(.malformed, at: location, "a list's values are 1 to \(Self.maximumValues) items")
            }
            var out: [SlotValue] = []
            for item in items {
                if let text = item.stringValue {
                    out.append(try Self.value(text, output: .string(text), at: location))
                } else if let input = item["in"]?.stringValue {
                    out.append(try Self.value(input, output: item["out"], at: location))
                } else {
                    throw SentenceError(.malformed, at: location, "a list value is text or {\"in\": template, \"out\": value}")
                }
            }
            self = .values(out)
        } else if let range = json["range"] {
            self = .range(try SlotRange(json: range, at: location))
        } else if json["wildcard"] == .bool(true) {
            self = .wildcard
        } else {
            throw SentenceError(.malformed, at: location, "a list has \"values\", \"range\" or \"wildcard: true\"")
        }
    }

    /// Text with template syntax is a template ("(closed|shut)"); other text is taken literally.
    private static func value(_ text: String, output: JSON?, at location: SentenceLocation) throws(SentenceError) -> SlotValue {
        guard !text.isEmpty, text.utf8.count <= 255 else {
            throw SentenceError(.malformed, at: location, "a list value is 1 to 255 bytes")
        }
        guard text.contains(where: { "()[]{}<>|".contains($0) }) else { return SlotValue(text: text, output: output) }
        return SlotValue(input: try IntentTemplates.Sentence(text, at: location).expression, output: output)
    }
}

extension SlotRange {
    /// `{from, to, step?, multiplier?, fractions?}`: whole numbers within ±2^40, a
    /// positive step, fractions `halves` or `tenths`.
    package init(json: JSON, at location: SentenceLocation) throws(SentenceError) {
        guard let from = json["from"]?.intValue, let to = json["to"]?.intValue,
              abs(from) < 1 << 40, abs(to) < 1 << 40 else {
            throw SentenceError(.malformed, at: location, "a range needs whole numbers \"from\" and \"to\"")
        }
        let step = json["step"]?.intValue ?? 1
        guard step > 0, step < 1 << 40 else { throw SentenceError(.malformed, at: location, "a range's step must be positive") }
        var fractions: Fractions?
        if let f = json["fractions"]?.stringValue {
            guard let known = Fractions(rawValue: f) else {
                throw SentenceError(.malformed, at: location, "fractions is \"halves\" or \"tenths\", not \"\(f)\"")
            }
            fractions = known
        }
        self.init(from: Int(from), to: Int(to), step: Int(step), multiplier: json["multiplier"]?.doubleValue, fractions: fractions)
    }
}
