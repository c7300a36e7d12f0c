/// One node of a parsed YAML document, with the position it started at.
///
/// The tree is plain value data: libyaml is only used while parsing (see
/// `YAMLParser`), so nodes can be kept, copied and sent between threads freely.
/// Aliases are already resolved (an alias becomes a copy of its anchored node, marks
/// included) and `<<` merge keys are already applied.
package struct YAMLNode: Sendable {
    /// What a node holds.
    package enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        /// Key/value pairs in document order. Keys keep their own marks.
        case mapping([Pair])
    }

    /// One entry of a mapping.
    package struct Pair: Sendable {
        package var key: YAMLNode
        package var value: YAMLNode

        package init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    package var content: Content
    /// Where the node starts (libyaml's start mark).
    package var mark: SourceMark
    /// The explicit tag in its resolved form (`!!str` becomes
    /// `tag:yaml.org,2002:str`), or nil when the node had none.
    package var tag: String?

    package init(_ content: Content, mark: SourceMark, tag: String? = nil) {
        self.content = content
        self.mark = mark
        self.tag = tag
    }
}

/// The text of a scalar and how it was written, so that `"10"` can stay a string
/// while a plain `10` reads as a number.
package struct YAMLScalar: Sendable, Hashable {
    /// How a scalar was written in the source.
    package enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The scalar's value after YAML's unescaping and folding.
    package var text: String
    package var style: Style

    package init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// True for an unquoted, non-block scalar: only these resolve to null, booleans
    /// and numbers.
    package var isPlain: Bool { style == .plain }
}

extension YAMLNode {
    /// Tag names YAML's core schema resolves to; used to honour explicit tags.
    enum CoreTag {
        static let string = "tag:yaml.org,2002:str"
        static let null = "tag:yaml.org,2002:null"
    }

    /// The scalar, when this node is one.
    package var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, when this node is a sequence.
    package var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The pairs, when this node is a mapping.
    package var mapping: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// True when the scalar's text may be read as null, a boolean or a number: it was
    /// written plain and carries no tag (`!!str 10` and `"10"` are strings).
    package var isUntypedPlainScalar: Bool {
        guard let scalar, scalar.isPlain else { return false }
        return tag == nil
    }

    /// The value of the first pair whose key is the scalar `key`, when this node is a
    /// mapping. For quick looks; decoding goes through `YAMLMapping`, which also
    /// reports unknown and duplicate keys.
    package subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar?.text == key }?.value
    }

    /// YAML's null: an empty plain scalar, `~`, `null`, or anything tagged `!!null`.
    package var isNull: Bool {
        guard let scalar else { return false }
        if tag == CoreTag.null { return true }
        guard isUntypedPlainScalar else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.text)
    }

    /// Describes what the node is, for "expected …, got …" messages: `a list`,
    /// `a mapping`, `null`, `the number 10`, `the string "abc"`.
    package var kindDescription: String {
        switch content {
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .scalar(let scalar):
            if isNull { return "null" }
            let shown = scalar.text.count > 40 ? scalar.text.prefix(37) + "..." : scalar.text
            if isUntypedPlainScalar {
                if Bool(yamlCoreText: scalar.text) != nil { return "the boolean \(shown)" }
                if Int(yamlCoreText: scalar.text) != nil || Double(yamlCoreText: scalar.text) != nil {
                    return "the number \(shown)"
                }
            }
            return "the string \"\(shown)\""
        }
    }
}

extension Bool {
    /// Reads YAML 1.2 core-schema booleans: `true`/`false` in any of their three
    /// spellings.
    package init?(yamlCoreText text: String) {
        switch text {
        case "true", "True", "TRUE": self = true
        case "false", "False", "FALSE": self = false
        default: return nil
        }
    }
}

extension Int {
    /// Reads YAML 1.2 core-schema integers: decimal with an optional sign, `0x…` and
    /// `0o…`. Underscores are not allowed.
    package init?(yamlCoreText text: String) {
        var body = Substring(text)
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        let magnitude: Int?
        if body.hasPrefix("0x") {
            magnitude = Int(body.dropFirst(2), radix: 16)
        } else if body.hasPrefix("0o") {
            magnitude = Int(body.dropFirst(2), radix: 8)
        } else if !body.isEmpty, body.allSatisfy(\.isASCIIDigit) {
            magnitude = Int(body, radix: 10)
        } else {
            magnitude = nil
        }
        guard let magnitude else { return nil }
        self = negative ? -magnitude : magnitude
    }
}

extension Double {
    /// Reads YAML 1.2 core-schema floats (`1.5`, `-2e3`, `.5`), not `.inf` or `.nan`,
    /// which no setting here wants.
    package init?(yamlCoreText text: String) {
        let allowed = Set("0123456789+-.eE")
        guard !text.isEmpty, text.allSatisfy(allowed.contains), text.contains(where: \.isASCIIDigit),
              let value = Double(text), value.isFinite
        else { return nil }
        self = value
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
