import IntentBusCore

/// What a `{list}` in a template takes.
package enum SlotList: Sendable {
    /// Named values: each said as its `input` template, giving its `output` (or the words
    /// as said when it has none) and adding its `context` to the match's.
    case values([SlotValue])
    /// Numbers from `from` to `to`, said as digits.
    case range(SlotRange)
    /// Any words at all (a shopping-list item, a message).
    case wildcard
}

/// One value of a list.
package struct SlotValue: Sendable {
    /// How it is said: plain words ("Living Room") or a template ("(closed|shut)").
    package var input: SentenceExpression
    /// What the slot gets; nil: the words as said.
    package var output: JSON?
    /// Added to the match's context when this value is said (an entity's domain, area).
    package var context: [String: JSON]

    package init(input: SentenceExpression, output: JSON?, context: [String: JSON] = [:]) {
        self.input = input
        self.output = output
        self.context = context
    }

    /// A value said as `text` (taken literally), giving `output` (default: `text`).
    package init(text: String, output: JSON? = nil, context: [String: JSON] = [:]) {
        self.init(input: .text(text), output: output ?? .string(text), context: context)
    }
}

/// A numeric range: `from`…`to` by `step`, halves or tenths allowed, the value multiplied.
package struct SlotRange: Sendable, Hashable {
    /// Fractions a range allows besides whole steps.
    package enum Fractions: String, Sendable, Hashable {
        case halves, tenths
    }

    package var from: Int
    package var to: Int
    package var step: Int
    package var multiplier: Double?
    package var fractions: Fractions?

    /// Most numbers a range may hold: a range is checked by arithmetic, but its bounds
    /// come from files and plugins, so they are range-checked too.
    package static let maxSpan = 1_000_000

    package init(from: Int, to: Int, step: Int = 1, multiplier: Double? = nil, fractions: Fractions? = nil) {
        self.from = from
        self.to = to
        self.step = step
        self.multiplier = multiplier
        self.fractions = fractions
    }

    /// The value for a said number, or nil when the range does not hold it.
    func value(for said: String) -> JSON? {
        var text = said
        if fractions != nil { text = text.replacingOccurrences(of: ",", with: ".") }
        guard let first = text.first, first.isNumber || (first == "-" && text.count > 1),
              text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }),
              let number = Double(text) else { return nil }
        guard number >= Double(from), number <= Double(to) else { return nil }
        let offset = number - Double(from)
        let whole = number == number.rounded()
        switch fractions {
        case nil:
            guard whole, Int(offset) % max(step, 1) == 0 else { return nil }
        case .halves?:
            guard (number * 2) == (number * 2).rounded() else { return nil }
        case .tenths?:
            guard (number * 10 - (number * 10).rounded()).magnitude < 1e-9 else { return nil }
        }
        var value = number
        if let multiplier { value *= multiplier }
        if value == value.rounded(), value.magnitude < 9e15 { return .int(Int64(value)) }
        return .double(value)
    }
}
