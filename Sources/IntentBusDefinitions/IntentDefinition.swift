import Foundation
import IntentBusCore
import IntentBusManifest

/// The type of an intent parameter or response parameter, as an intent definition
/// declares it (the `.intentdefinition` types, plus enums and custom object types
/// declared in the same file).
package enum ParameterType: Sendable, Hashable, CustomStringConvertible {
    case string, integer, decimal, boolean, date, duration, currencyAmount
    /// Xcode's Person, Placemark, File and URL types (docs/definitions.md, "Values on the wire").
    case person, placemark, file, url
    /// An enum declared in the definition file's `enums:`.
    case enumeration(String)
    /// A custom object type declared in the definition file's `types:`.
    case object(String)

    /// The built-in type names, as written in definition files.
    package static let builtinNames: [String: ParameterType] = [
        "String": .string, "Integer": .integer, "Decimal": .decimal, "Boolean": .boolean,
        "Date": .date, "Duration": .duration, "CurrencyAmount": .currencyAmount,
        "File": .file, "URL": .url,
    ]

    /// Xcode's Person and Placemark: built in unless the file declares a type of that
    /// name (the standard intents' definitions do, with their fields).
    package static let systemNames: [String: ParameterType] = ["Person": .person, "Placemark": .placemark]

    /// The name as written in a definition file (`Integer`, `Contract`).
    package var description: String {
        switch self {
        case .string: "String"
        case .integer: "Integer"
        case .decimal: "Decimal"
        case .boolean: "Boolean"
        case .date: "Date"
        case .duration: "Duration"
        case .currencyAmount: "CurrencyAmount"
        case .person: "Person"
        case .placemark: "Placemark"
        case .file: "File"
        case .url: "URL"
        case .enumeration(let name), .object(let name): name
        }
    }

    /// Whether `minimum`/`maximum` make sense for the type (numbers, durations in
    /// seconds, currency amounts).
    var isRanged: Bool {
        switch self {
        case .integer, .decimal, .duration, .currencyAmount: true
        default: false
        }
    }
}

/// One case of a declared enum.
package struct EnumCaseDefinition: Sendable {
    package var name: String
    package var displayName: String
}

/// An enum declared in a definition file; values travel as the case name.
package struct EnumDefinition: Sendable {
    package var name: String
    package var displayName: String
    package var cases: [EnumCaseDefinition]
    package var mark: SourceMark
}

/// A custom object type declared in a definition file (Apple's custom types). Values
/// travel as an object with `identifier` and `displayString` (plus the declared
/// properties), or as a string the plugin resolves.
package struct CustomTypeDefinition: Sendable {
    package var name: String
    package var displayName: String
    /// Declared properties, by name → type name (documentation for plugin authors).
    package var properties: [(name: String, type: String)]
    package var mark: SourceMark
}

/// The dialogs the host uses when it asks the user about one parameter. Any of them
/// may be nil; the host then uses a neutral default (docs/definitions.md).
package struct PromptDialogs: Sendable {
    /// Asked for a missing value (`needsValue`), and after `unsupported`.
    package var primary: String?
    /// A yes/no question about a value (`confirmationRequired`); `${value}` is the value.
    package var confirmation: String?
    /// Opens a disambiguation; `${count}` options matching `${value}`.
    package var disambiguationIntroduction: String?
    /// Closes a disambiguation ("Which one?").
    package var disambiguationSelection: String?
    /// Asked when the user sets the parameter up in a shortcut or widget
    /// (`INIntentParameterPromptDialogType` Configuration); describe shows it.
    package var configuration: String? = nil
}

/// Why a value is not supported, with the format string the user hears.
package struct UnsupportedReason: Sendable {
    package var code: String
    package var formatString: String
    package var mark: SourceMark
}

/// One parameter of an intent.
package struct ParameterDefinition: Sendable {
    package var name: String
    package var displayName: String
    package var description: String?
    package var type: ParameterType
    /// The host asks for a required parameter that is still empty after resolution.
    package var required: Bool
    /// Takes a list of values.
    package var multiple: Bool
    /// Filled in by the host when the request does not give the parameter.
    package var defaultValue: JSON?
    package var minimum: Double?
    package var maximum: Double?
    package var prompts: PromptDialogs
    package var unsupportedReasons: [UnsupportedReason]
    package var mark: SourceMark
    /// The plugin provides the options (Xcode's "Options are provided dynamically").
    /// Kept from the definition; the flow does not ask the plugin for them yet.
    package var dynamicOptions: Bool = false
    /// A Boolean's display names for true and false (Xcode's metadata), when given.
    package var booleanNames: (true: String, false: String)? = nil
}

/// One parameter combination of an intent (Xcode's "Supported combinations"): the
/// parameters it takes and the title shown for it.
package struct ParameterCombination: Sendable {
    package var parameters: [String]
    package var title: String?
    package var subtitle: String?
    package var supportsBackgroundExecution: Bool
}

/// One parameter of an intent's response, which format strings may name.
package struct ResponseParameterDefinition: Sendable {
    package var name: String
    package var displayName: String
    package var type: ParameterType
    package var multiple: Bool
    package var mark: SourceMark
}

/// One response code: its name, number, success flag and the dialog templates.
package struct ResponseCodeDefinition: Sendable {
    package var name: String
    /// The number, as Apple's generated enums have it: the generic codes 0–6, custom
    /// codes from 100, standard intents their own numbering.
    package var value: Int
    package var success: Bool
    package var formatString: String?
    package var conciseFormatString: String?
    /// Where it was declared; nil for generic codes the file did not mention.
    package var mark: SourceMark?
}

/// A legacy intent's full definition, the counterpart of one intent in an
/// `.intentdefinition` file (or of a standard SiriKit intent, built in).
package struct IntentDefinition: Sendable {
    package var name: String
    package var title: String
    package var description: String?
    package var category: String
    package var examplePhrases: [String]
    /// In declaration order, which is also the order the host asks in.
    package var parameters: [ParameterDefinition]
    package var responseParameters: [ResponseParameterDefinition]
    /// Every code the handler may return: the generic set (unless a standard intent
    /// has its own) plus the file's codes, by ascending number.
    package var codes: [ResponseCodeDefinition]
    /// The enums and custom types of the file the intent came from.
    package var enums: [String: EnumDefinition]
    package var types: [String: CustomTypeDefinition]
    /// True for the built-in standard-domain intents.
    package var isStandard: Bool
    package var mark: SourceMark
    /// How dialogs render values: the file's `locale:`, neutral when it names none
    /// (and for the standard intents).
    package var locale: DialogLocale = .neutral
    /// `suggestedInvocationPhrase`: the phrase "Add to Siri" offers, and one the host
    /// runs the intent by (docs/shortcuts.md).
    package var suggestedInvocationPhrase: String? = nil
    /// `INIntentConfigurable`: the user may set the intent up in Shortcuts.
    package var configurable: Bool = false
    /// `INIntentKeyParameter`: the parameter the intent is mainly about.
    package var keyParameter: String? = nil
    package var parameterCombinations: [ParameterCombination] = []

    /// The parameter named `name`.
    package func parameter(_ name: String) -> ParameterDefinition? { parameters.first { $0.name == name } }
    /// The response code named `name`.
    package func code(_ name: String) -> ResponseCodeDefinition? { codes.first { $0.name == name } }
}

/// The generic response codes every custom intent has, as Apple generates them for a
/// custom intent's response: `unspecified = 0 … failureRequiringAppLaunch = 6`.
package enum GenericResponseCodes {
    /// Name, number, success flag, default English dialog.
    package static let all: [(name: String, value: Int, success: Bool, dialog: String)] = [
        ("unspecified", 0, false, "Something went wrong."),
        ("ready", 1, true, "Ready."),
        ("continueInApp", 2, true, "Continue in the app."),
        ("inProgress", 3, true, "Working on it."),
        ("success", 4, true, "Done."),
        ("failure", 5, false, "Sorry, that didn't work."),
        ("failureRequiringAppLaunch", 6, false, "Please open the app to continue."),
    ]

    /// The dialog the host renders for a generic code that a definition gives no
    /// format string.
    package static func defaultDialog(_ name: String) -> String? { all.first { $0.name == name }?.dialog }

    /// First number of the codes a definition adds.
    package static let firstCustomValue = 100
}
