import IntentBusCore

/// One declared parameter of a new-style intent: an entry of metadata
/// `intents[].parameters` (docs/protocol.md §9.1). The Swift SDK builds it from an
/// `@Parameter`; the host decodes it from HELLO and checks every request against it.
public struct NewStyleParameter: Sendable, Equatable {
    /// The wire name (the Swift property's name).
    public var name: String
    public var title: String
    /// The value's type (a list's items' type when `multiple`).
    public var type: ValueType
    /// The declared entity type of an `entity` parameter.
    public var entity: String?
    /// The declared enum of an `enum` parameter (`enum` on the wire).
    public var enumName: String?
    /// May stay absent; otherwise the host asks for a value it has no default for.
    public var optional: Bool
    /// Applied by the host when the parameter is absent (a list for `multiple`).
    public var defaultValue: JSON?
    /// The inclusive range of a numeric parameter (`min`, `max`), as wire numbers.
    public var min: JSON?
    public var max: JSON?
    /// The dialog of the host's question for a value.
    public var requestValueDialog: String?
    public var description: String?
    /// Takes a list of values (`"multiple": true`; Swift `[ProjectEntity]`).
    public var multiple: Bool
    /// How a client shows a number (`control_style`: automatic, field, stepper, slider).
    public var controlStyle: String?
    /// How a client's keyboard behaves for text (`input_options`, `NewStyleInputOptions`).
    public var inputOptions: JSON?

    public init(name: String, title: String, type: ValueType, entity: String? = nil, enumName: String? = nil,
                optional: Bool = false, defaultValue: JSON? = nil, min: JSON? = nil, max: JSON? = nil,
                requestValueDialog: String? = nil, description: String? = nil, multiple: Bool = false,
                controlStyle: String? = nil, inputOptions: JSON? = nil) {
        self.name = name
        self.title = title
        self.type = type
        self.entity = entity
        self.enumName = enumName
        self.optional = optional
        self.defaultValue = defaultValue
        self.min = min
        self.max = max
        self.requestValueDialog = requestValueDialog
        self.description = description
        self.multiple = multiple
        self.controlStyle = controlStyle
        self.inputOptions = inputOptions
    }

    /// The metadata entry. Absent fields are left out; `optional` is always written.
    public var json: JSON {
        var o: [String: JSON] = ["name": .string(name), "title": .string(title), "type": .string(type.rawValue),
                                 "optional": .bool(optional)]
        if multiple { o["multiple"] = true }
        if let entity { o["entity"] = .string(entity) }
        if let enumName { o["enum"] = .string(enumName) }
        if let description { o["description"] = .string(description) }
        if let defaultValue, !defaultValue.isNull { o["default"] = defaultValue }
        if let min { o["min"] = min }
        if let max { o["max"] = max }
        if let requestValueDialog { o["request_value_dialog"] = .string(requestValueDialog) }
        if let controlStyle { o["control_style"] = .string(controlStyle) }
        if let inputOptions { o["input_options"] = inputOptions }
        return .object(o)
    }

    /// The control styles a number parameter may declare.
    public static let controlStyles: Set<String> = ["automatic", "field", "stepper", "slider"]
    /// The keys of `input_options` and what each takes: a flag, or one of a few names.
    public static let inputOptionKeys: [String: Set<String>?] = [
        "keyboard_type": ["default", "number_pad", "email_address", "url", "phone_pad", "ascii_capable", "decimal_pad"],
        "capitalization": ["none", "words", "sentences", "all_characters"],
        "multiline": nil, "autocorrect": nil, "smart_quotes": nil, "smart_dashes": nil,
    ]

    /// The range for people: "5…180", "≥ 5", "≤ 180", or "any".
    public var rangeText: String {
        switch (min, max) {
        case let (lo?, hi?): "\(lo.displayText)…\(hi.displayText)"
        case let (lo?, nil): "≥ \(lo.displayText)"
        case let (nil, hi?): "≤ \(hi.displayText)"
        default: "any"
        }
    }

    /// Whether a numeric value (every item of a list) lies in the inclusive range; true
    /// when there is none, and for values that are not numbers.
    public func inRange(_ value: JSON) -> Bool {
        if let items = value.arrayValue { return items.allSatisfy { inRange($0) } }
        guard let v = value.doubleValue else { return true }
        if let lo = min?.doubleValue, v < lo { return false }
        if let hi = max?.doubleValue, v > hi { return false }
        return true
    }
}
