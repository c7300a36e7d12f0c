/// How one parameter, response parameter or property looks in the generated Swift: its
/// type as Xcode's generated Swift has it, how it reads and writes its wire value
/// through an `INValueStore`, and its resolution result class.
struct SwiftTypeMapping {
    let type: String
    /// Whether the property is optional (an enum is not: it is `.unknown` instead).
    let optional: Bool
    let getter: (_ store: String, _ name: String) -> String
    let setter: (_ store: String, _ name: String) -> String
    let resolution: String

    /// The value classes of Xcode's system types, with their resolution results. Apple's
    /// Placemark is CoreLocation's `CLPlacemark`; the Intents module has a stand-in.
    static let valueClasses = ["Person": ("INPerson", "INPersonResolutionResult"),
                               "CurrencyAmount": ("INCurrencyAmount", "INCurrencyAmountResolutionResult"),
                               "Placemark": ("CLPlacemark", "INPlacemarkResolutionResult"),
                               "File": ("INFile", "INFileResolutionResult")]

    /// The mapping, or nil for a type that has no class here (a list of numbers or dates):
    /// the property is left out, and a comment says so.
    init?(_ value: DefinitionModel.Value) {
        let q = { (name: String) in "\"\(name)\"" }
        if value.isEnum, let e = value.typeName, !value.multiple {
            type = e
            optional = false
            getter = { "\(e)(intentBusName: \($0).string(\(q($1))))" }
            setter = { "\($0).set(newValue.intentBusName, \(q($1)))" }
            resolution = "\(e)ResolutionResult"
            return
        }
        optional = true
        switch (value.type, value.multiple) {
        case ("String", false):
            (type, resolution) = ("String", "INStringResolutionResult")
            getter = { "\($0).string(\(q($1)))" }
        case ("String", true):
            (type, resolution) = ("[String]", "INStringResolutionResult")
            getter = { "\($0).strings(\(q($1)))" }
        case ("Integer", false), ("Decimal", false), ("Duration", false), ("Boolean", false):
            type = "NSNumber"
            resolution = ["Integer": "INIntegerResolutionResult", "Boolean": "INBooleanResolutionResult"][value.type] ?? "INDoubleResolutionResult"
            getter = { "\($0).number(\(q($1)))" }
        case ("DateComponents", false):
            (type, resolution) = ("DateComponents", "INDateComponentsResolutionResult")
            getter = { "\($0).dateComponents(\(q($1)))" }
        case ("URL", false):
            (type, resolution) = ("URL", "INURLResolutionResult")
            getter = { "\($0).url(\(q($1)))" }
        case ("Object", let multiple), ("Person", let multiple), ("CurrencyAmount", let multiple),
             ("Placemark", let multiple), ("File", let multiple):
            guard let t = Self.valueClasses[value.type]?.0 ?? value.typeName else { return nil }
            let result = Self.valueClasses[value.type]?.1 ?? "\(t)ResolutionResult"
            (type, resolution) = (multiple ? "[\(t)]" : t, result)
            getter = { "\($0).\(multiple ? "objects" : "object")(\(q($1)), as: \(t).self)" }
        default:
            return nil
        }
        let boolean = value.type == "Boolean"
        setter = { "\($0).set(\(boolean ? "boolean: " : "")newValue, \(q($1)))" }
    }

    /// The declared type of the property.
    var propertyType: String { optional ? type + "?" : type }

    /// A computed property over `store`.
    func property(_ name: String, store: String) -> String {
        "    public var \(Self.escaped(name)): \(propertyType) {\n" +
        "        get { \(getter(store, name)) }\n" +
        "        set { \(setter(store, name)) }\n" +
        "    }\n"
    }

    static let keywords: Set<String> = ["as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else",
        "enum", "extension", "fallthrough", "false", "for", "func", "guard", "if", "import", "in", "init", "inout", "internal",
        "is", "let", "nil", "operator", "private", "protocol", "public", "repeat", "return", "self", "Self", "static",
        "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias", "var", "where", "while"]

    /// A name as Swift takes it where a keyword would not do (`default` → `` `default` ``).
    static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// `contract` → `Contract`, for `resolveContract`.
    static func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }
}
