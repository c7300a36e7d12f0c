import IntentBusCore

/// The `.intentdefinition` keys that map one to one onto a YAML key, per dictionary
/// kind, and the keys that are Xcode's own bookkeeping. One table for both directions,
/// so that reading and writing cannot disagree.
package enum XcodeKeys {
    /// What a simple key's value must be.
    package enum Kind: Sendable { case string, bool, number, any, strings }

    /// One key copied as it is: the Xcode name, the YAML name, the value's kind.
    package struct Simple: Sendable {
        package var xcode: String
        package var yaml: String
        package var kind: Kind
    }

    /// A kind of dictionary in the file: its simple keys and the keys dropped silently
    /// (tags, display priorities, namespaces, versions: Xcode's bookkeeping, which
    /// `XcodeShapeWriter` writes afresh).
    package struct Level: Sendable {
        package var name: String
        package var simple: [Simple]
        package var bookkeeping: Set<String>
    }

    /// `Title` → `title`, `TitleID` → `titleID` under `prefix`; a localized text and its
    /// `…ID` key come in pairs.
    private static func keys(_ prefix: String, _ names: [(String, Kind)], renamed: [String: String] = [:]) -> [Simple] {
        names.map { name, kind in
            Simple(xcode: prefix + name, yaml: renamed[name] ?? (name.prefix(1).lowercased() + name.dropFirst()), kind: kind)
        }
    }

    private static func texts(_ names: String...) -> [(String, Kind)] {
        names.flatMap { [($0, Kind.string), ($0 + "ID", Kind.string)] }
    }

    package static let root = Level(name: "definition", simple: [], bookkeeping: [
        "INIntentDefinitionModelVersion", "INIntentDefinitionNamespace", "INIntentDefinitionSystemVersion",
        "INIntentDefinitionToolsBuildVersion", "INIntentDefinitionToolsVersion", "INIntentDefinitionDevelopmentLanguage",
    ])

    package static let intent = Level(name: "intent", simple: keys("INIntent",
        [("Name", .string)] + texts("Title", "Description") + [("Category", .string), ("Verb", .string),
         ("Configurable", .bool), ("IneligibleForSuggestions", .bool), ("EligibleForWidgets", .bool),
         ("KeyParameter", .string), ("Input", .string)] + texts("SuggestedInvocationPhrase") + [("ExamplePhrases", .strings)]),
        bookkeeping: ["INIntentLastParameterTag", "INIntentType"])

    package static let combination = Level(name: "parameter combination", simple: keys("INIntentParameterCombination",
        texts("Title", "Subtitle") + [("SupportsBackgroundExecution", .bool), ("IsPrimary", .bool), ("IsLinked", .bool), ("UpdatesLinked", .bool)],
        renamed: ["IsPrimary": "primary", "IsLinked": "linked"]), bookkeeping: [])

    package static let parameter = Level(name: "parameter", simple: keys("INIntentParameter",
        [("Name", .string)] + texts("DisplayName", "Description") + [("SupportsMultipleValues", .bool), ("Required", .bool),
         ("Configurable", .bool), ("SupportsResolution", .bool), ("SupportsDynamicEnumeration", .bool),
         ("CustomDisambiguation", .bool), ("FixedSizeArray", .number)],
        renamed: ["SupportsMultipleValues": "multiple", "SupportsDynamicEnumeration": "dynamicOptions", "FixedSizeArray": "fixedSize"]),
        bookkeeping: ["INIntentParameterTag", "INIntentParameterDisplayPriority", "INIntentParameterObjectTypeNamespace",
                      "INIntentParameterEnumTypeNamespace"])

    /// `INIntentParameterMetadata`, flattened into the parameter in YAML.
    package static let metadata = Level(name: "parameter metadata", simple: keys("INIntentParameterMetadata",
        [("DefaultValue", .any), ("DefaultValueID", .string), ("MinimumValue", .number), ("MaximumValue", .number)]
        + texts("TrueDisplayName", "FalseDisplayName") + [("Type", .string)],
        renamed: ["DefaultValue": "default", "DefaultValueID": "defaultID", "MinimumValue": "minimum", "MaximumValue": "maximum",
                  "Type": "valueKind"]),
        bookkeeping: ["INIntentParameterMetadataHasMinimumValue", "INIntentParameterMetadataHasMaximumValue"])

    /// Keyboard and text-field hints for the Shortcuts editor: no meaning off the device
    /// (one warning per key per file says so).
    package static let deviceOnlyMetadata: Set<String> = [
        "INIntentParameterMetadataCapitalization", "INIntentParameterMetadataDisableAutocorrect",
        "INIntentParameterMetadataDisableSmartDashes", "INIntentParameterMetadataDisableSmartQuotes",
        "INIntentParameterMetadataMultiline", "INIntentParameterMetadataKeyboardType",
        "INIntentParameterMetadataTextContentType",
    ]

    package static let relationship = Level(name: "parameter relationship", simple: keys("INIntentParameterRelationship",
        [("ParentName", .string), ("PredicateName", .string), ("PredicateValues", .any)],
        renamed: ["ParentName": "parent", "PredicateName": "predicate", "PredicateValues": "values"]), bookkeeping: [])

    package static let reason = Level(name: "unsupported reason", simple: keys("INIntentParameterUnsupportedReason",
        [("Code", .string)] + texts("FormatString")),
        bookkeeping: ["INIntentParameterUnsupportedReasonCustom"])

    package static let response = Level(name: "response", simple: keys("INIntentResponse", [("Output", .string)]),
        bookkeeping: ["INIntentResponseLastParameterTag"])

    package static let code = Level(name: "response code", simple: keys("INIntentResponseCode",
        [("Name", .string), ("Success", .bool)] + texts("FormatString", "ConciseFormatString")), bookkeeping: [])

    package static let responseParameter = Level(name: "response parameter", simple: keys("INIntentResponseParameter",
        [("Name", .string)] + texts("DisplayName") + [("SupportsMultipleValues", .bool)], renamed: ["SupportsMultipleValues": "multiple"]),
        bookkeeping: ["INIntentResponseParameterTag", "INIntentResponseParameterDisplayPriority",
                      "INIntentResponseParameterObjectTypeNamespace", "INIntentResponseParameterEnumTypeNamespace"])

    package static let type = Level(name: "custom type", simple: keys("INType", [("Name", .string)] + texts("DisplayName")),
        bookkeeping: ["INTypeLastPropertyTag"])

    package static let property = Level(name: "type property", simple: keys("INTypeProperty",
        [("Name", .string)] + texts("DisplayName") + [("SupportsMultipleValues", .bool)], renamed: ["SupportsMultipleValues": "multiple"]),
        bookkeeping: ["INTypePropertyTag", "INTypePropertyDisplayPriority", "INTypePropertyObjectTypeNamespace",
                      "INTypePropertyEnumTypeNamespace"])

    package static let enumeration = Level(name: "enum", simple: keys("INEnum", [("Name", .string)] + texts("DisplayName")),
        bookkeeping: ["INEnumType", "INEnumGeneratesHeader"])

    package static let enumValue = Level(name: "enum value", simple: keys("INEnumValue", [("Name", .string)] + texts("DisplayName")),
        bookkeeping: ["INEnumValueIndex"])

    /// Xcode's parameter types that are the YAML type of the same name (`DateComponents`
    /// is `Date`); `Object` and an `Integer` with an enum name the custom ones.
    package static let types: [String: String] = [
        "String": "String", "Integer": "Integer", "Decimal": "Decimal", "Boolean": "Boolean",
        "DateComponents": "Date", "Duration": "Duration", "CurrencyAmount": "CurrencyAmount",
        "Person": "Person", "Placemark": "Placemark", "File": "File", "URL": "URL",
    ]

    /// The prompt dialog types, as Xcode names them; YAML's `prompts:` keys are these
    /// with a lower-case first letter.
    package static let promptTypes = ["Primary", "Configuration", "Confirmation", "DisambiguationIntroduction", "DisambiguationSelection"]

    /// The properties Xcode gives every custom type (`INObject`'s own); YAML lists only
    /// the type's own properties, and the writer adds these back.
    package static let objectProperties: [(name: String, type: String, multiple: Bool)] = [
        ("identifier", "String", false), ("displayString", "String", false),
        ("pronunciationHint", "String", false), ("alternativeSpeakableMatches", "SpeakableString", true),
    ]
}
