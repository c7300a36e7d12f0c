import Foundation
import IntentBusCore

/// The parts of an `.intentdefinition` the generated Swift is made from, read from the
/// property list as `PropertyListJSON` gives it (Xcode's own keys).
struct DefinitionModel {
    struct Value {
        let name: String
        /// Xcode's type (`String`, `Integer`, `Object`, …).
        let type: String
        /// The custom type's or enum's name, for `Object` and enum-typed `Integer`.
        let typeName: String?
        let isEnum: Bool
        let multiple: Bool
        /// Xcode's "Options are provided dynamically": `provide<Name>OptionsCollection`.
        var dynamicOptions = false
    }

    struct Code {
        let name: String
        let formatString: String?
    }

    struct Intent {
        let name: String
        let parameters: [Value]
        let responseParameters: [Value]
        let codes: [Code]
    }

    struct CustomType {
        let name: String
        let properties: [Value]
    }

    struct Enumeration {
        let name: String
        let cases: [(name: String, index: Int)]
    }

    var intents: [Intent] = []
    var types: [CustomType] = []
    var enums: [Enumeration] = []

    init(_ definition: JSON, file: String) throws(GeneratorError) {
        func name(_ node: JSON, _ key: String, _ path: String) throws(GeneratorError) -> String {
            guard let text = node[key]?.stringValue else { throw GeneratorError(file: file, keyPath: "\(path).\(key)", message: "missing") }
            guard Self.isIdentifier(text) else {
                throw GeneratorError(file: file, keyPath: "\(path).\(key)", message: "'\(text)' is not a Swift identifier")
            }
            return text
        }
        func values(_ list: JSON?, _ prefix: String, _ path: String) throws(GeneratorError) -> [Value] {
            var out: [Value] = []
            for (i, item) in (list?.arrayValue ?? []).enumerated() {
                let at = "\(path)[\(i)]"
                let type = item["\(prefix)Type"]?.stringValue ?? "String"
                let enumName = item["\(prefix)EnumType"]?.stringValue
                let objectName = item["\(prefix)ObjectType"]?.stringValue
                out.append(Value(name: try name(item, "\(prefix)Name", at), type: type, typeName: enumName ?? objectName,
                                 isEnum: enumName != nil, multiple: item["\(prefix)SupportsMultipleValues"]?.boolValue ?? false,
                                 dynamicOptions: item["\(prefix)SupportsDynamicEnumeration"]?.boolValue ?? false))
            }
            return out
        }
        for (i, intent) in (definition["INIntents"]?.arrayValue ?? []).enumerated() {
            let at = "INIntents[\(i)]"
            // System intents (INSendMessageIntent) are Apple's classes, not generated ones.
            guard (intent["INIntentType"]?.stringValue ?? "Custom") == "Custom" else { continue }
            let response = intent["INIntentResponse"] ?? .object([:])
            var codes: [Code] = []
            for (j, code) in (response["INIntentResponseCodes"]?.arrayValue ?? []).enumerated() {
                codes.append(Code(name: try name(code, "INIntentResponseCodeName", "\(at).INIntentResponse.INIntentResponseCodes[\(j)]"),
                                  formatString: code["INIntentResponseCodeFormatString"]?.stringValue))
            }
            intents.append(Intent(
                name: try name(intent, "INIntentName", at),
                parameters: try values(intent["INIntentParameters"], "INIntentParameter", "\(at).INIntentParameters"),
                responseParameters: try values(response["INIntentResponseParameters"], "INIntentResponseParameter",
                                               "\(at).INIntentResponse.INIntentResponseParameters"),
                codes: codes))
        }
        for (i, type) in (definition["INTypes"]?.arrayValue ?? []).enumerated() {
            let at = "INTypes[\(i)]"
            types.append(CustomType(name: try name(type, "INTypeName", at),
                                    properties: try values(type["INTypeProperties"], "INTypeProperty", "\(at).INTypeProperties")))
        }
        for (i, enumeration) in (definition["INEnums"]?.arrayValue ?? []).enumerated() {
            let at = "INEnums[\(i)]"
            var cases: [(String, Int)] = []
            for (j, value) in (enumeration["INEnumValues"]?.arrayValue ?? []).enumerated() {
                let caseName = try name(value, "INEnumValueName", "\(at).INEnumValues[\(j)]")
                // Xcode's enums keep 0 for `unknown`; a value without an index counts on.
                let index = value["INEnumValueIndex"]?.intValue.map { Int($0) } ?? (cases.last.map { $0.1 + 1 } ?? 1)
                guard caseName != "unknown" else { continue }
                // 0 is `unknown`'s; two cases with one index would not compile.
                guard index >= 1, !cases.contains(where: { $0.1 == index }) else {
                    throw GeneratorError(file: file, keyPath: "\(at).INEnumValues[\(j)].INEnumValueIndex",
                                         message: "\(index) is 0 (unknown's) or used by another case")
                }
                cases.append((caseName, index))
            }
            enums.append(Enumeration(name: try name(enumeration, "INEnumName", at), cases: cases))
        }
    }

    /// A name Swift takes as it is (a keyword is escaped where it is used).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}
