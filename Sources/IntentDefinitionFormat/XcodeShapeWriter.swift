import IntentBusCore

/// Turns a definition in the YAML form's shape into an `.intentdefinition` property
/// list, the way Xcode writes one: the same keys `XcodeShapeReader` reads (one table,
/// `XcodeKeys`), plus Xcode's bookkeeping written afresh (tags, display priorities,
/// the namespace, `INObject`'s own properties on each custom type, the enum indices).
/// Reading its output gives back the same shape.
package enum XcodeShapeWriter {
    /// What Xcode's tools version says in files it writes: the format this follows.
    static let modelVersion = "1.2"
    /// The namespace Xcode stamps on a file and on each object type it declares.
    static let namespace = "IntBus"

    package static func plist(_ shape: ShapedNode) -> JSON {
        let enums = Set(shape["enums"]?.items.compactMap { $0["name"]?.string } ?? [])
        var root: [String: JSON] = [
            "INIntentDefinitionModelVersion": .string(modelVersion),
            "INIntentDefinitionNamespace": .string(namespace),
        ]
        // Lists only where the shape has them, so that reading gives back the same shape.
        if let e = shape["enums"] { root["INEnums"] = .array(e.items.map(enumeration)) }
        if let t = shape["types"] { root["INTypes"] = .array(t.items.map { customType($0, enums: enums) }) }
        if let i = shape["intents"] { root["INIntents"] = .array(i.items.map { intent($0, enums: enums) }) }
        return .object(root)
    }

    private static func enumeration(_ node: ShapedNode) -> JSON {
        var out = simple(node, XcodeKeys.enumeration)
        out["INEnumType"] = .string("Regular")
        out["INEnumGeneratesHeader"] = .bool(true)
        out["INEnumValues"] = .array((node["cases"]?.items ?? []).enumerated().map { index, c in
            // YAML's short form of a case is its bare name.
            var value = c.string.map { ["INEnumValueName": .string($0)] } ?? simple(c, XcodeKeys.enumValue)
            if index > 0 { value["INEnumValueIndex"] = .int(Int64(index)) }
            return .object(value)
        })
        return .object(out)
    }

    private static func customType(_ node: ShapedNode, enums: Set<String>) -> JSON {
        var out = simple(node, XcodeKeys.type)
        var properties: [JSON] = XcodeKeys.objectProperties.enumerated().map { index, p in
            var d: [String: JSON] = ["INTypePropertyDefault": .bool(true), "INTypePropertyName": .string(p.name),
                                     "INTypePropertyTag": .int(Int64(index + 1)), "INTypePropertyDisplayPriority": .int(Int64(index + 1)),
                                     "INTypePropertyType": .string(p.type)]
            if p.multiple { d["INTypePropertySupportsMultipleValues"] = .bool(true) }
            return .object(d)
        }
        let first = XcodeKeys.objectProperties.count
        for (index, p) in (node["properties"]?.items ?? []).enumerated() {
            var d = simple(p, XcodeKeys.property)
            type(p, prefix: "INTypeProperty", enums: enums, into: &d)
            d["INTypePropertyTag"] = .int(Int64(first + index + 100))
            d["INTypePropertyDisplayPriority"] = .int(Int64(first + index + 1))
            properties.append(.object(d))
        }
        out["INTypeProperties"] = .array(properties)
        out["INTypeLastPropertyTag"] = .int(Int64(first + (node["properties"]?.items.count ?? 0) + 99))
        return .object(out)
    }

    private static func intent(_ node: ShapedNode, enums: Set<String>) -> JSON {
        var out = simple(node, XcodeKeys.intent)
        out["INIntentType"] = .string("Custom")
        let parameters = node["parameters"]?.items ?? []
        if node["parameters"] != nil {
            out["INIntentParameters"] = .array(parameters.enumerated().map { parameter($1, index: $0, enums: enums) })
        }
        out["INIntentLastParameterTag"] = .int(Int64(parameters.count))
        var combinations: [String: JSON] = [:], managed: [String: JSON] = [:]
        for c in node["parameterCombinations"]?.items ?? [] {
            guard let names = c["parameters"]?.string else { continue }
            if c["managed"]?.scalarValue?.boolValue == true { managed[names] = .object(simple(c, XcodeKeys.combination)) }
            else { combinations[names] = .object(simple(c, XcodeKeys.combination)) }
        }
        if !combinations.isEmpty { out["INIntentParameterCombinations"] = .object(combinations) }
        if !managed.isEmpty { out["INIntentManagedParameterCombinations"] = .object(managed) }
        if let response = node["response"] {
            var r = simple(response, XcodeKeys.response)
            let responseParameters = response["parameters"]?.items ?? []
            if response["parameters"] != nil { r["INIntentResponseParameters"] = .array(responseParameters.enumerated().map { index, p in
                var d = simple(p, XcodeKeys.responseParameter)
                type(p, prefix: "INIntentResponseParameter", enums: enums, into: &d)
                d["INIntentResponseParameterTag"] = .int(Int64(index + 1))
                d["INIntentResponseParameterDisplayPriority"] = .int(Int64(index + 1))
                return .object(d)
            }) }
            r["INIntentResponseLastParameterTag"] = .int(Int64(responseParameters.count))
            if let codes = response["codes"] { r["INIntentResponseCodes"] = .array(codes.items.map { .object(simple($0, XcodeKeys.code)) }) }
            out["INIntentResponse"] = .object(r)
        }
        return .object(out)
    }

    private static func parameter(_ node: ShapedNode, index: Int, enums: Set<String>) -> JSON {
        var out = simple(node, XcodeKeys.parameter)
        type(node, prefix: "INIntentParameter", enums: enums, into: &out)
        out["INIntentParameterTag"] = .int(Int64(index + 1))
        out["INIntentParameterDisplayPriority"] = .int(Int64(index + 1))
        if let prompts = node["prompts"] {
            out["INIntentParameterPromptDialogs"] = .array(XcodeKeys.promptTypes.compactMap { type in
                let key = type.prefix(1).lowercased() + type.dropFirst()
                guard let text = prompts[key]?.scalarValue else { return nil }
                var d: [String: JSON] = ["INIntentParameterPromptDialogType": .string(type), "INIntentParameterPromptDialogCustom": .bool(true),
                                         "INIntentParameterPromptDialogFormatString": text]
                if let id = prompts[key + "ID"]?.scalarValue { d["INIntentParameterPromptDialogFormatStringID"] = id }
                return .object(d)
            })
        }
        var metadata = simple(node, XcodeKeys.metadata)
        if let utis = node["fileTypes"]?.items.compactMap(\.scalarValue), !utis.isEmpty {
            metadata["INIntentParameterMetadataCustomUTIs"] = .array(utis.map { .object(["UTI": $0]) })
        }
        if !metadata.isEmpty { out["INIntentParameterMetadata"] = .object(metadata) }
        if let relation = node["relationship"] { out["INIntentParameterRelationship"] = .object(simple(relation, XcodeKeys.relationship)) }
        if let sizes = node["fixedSizes"] {
            out["INIntentParameterArraySizes"] = .array(sizes.entries.map {
                .object(["INIntentParameterArraySizeSizeClass": .string($0.key), "INIntentParameterArraySizeSize": $0.node.scalarValue ?? .int(1)])
            })
        }
        if let reasons = node["unsupportedReasons"] {
            out["INIntentParameterUnsupportedReasons"] = .array(reasons.items.map {
                var d = simple($0, XcodeKeys.reason)
                d["INIntentParameterUnsupportedReasonCustom"] = .bool(true)
                return .object(d)
            })
        }
        return .object(out)
    }

    /// YAML's `type:` as Xcode's `<prefix>Type` (and `ObjectType` / `EnumType`).
    private static func type(_ node: ShapedNode, prefix: String, enums: Set<String>, into out: inout [String: JSON]) {
        guard let name = node["type"]?.string else { return }
        if let xcode = XcodeKeys.types.first(where: { $0.value == name })?.key {
            out[prefix + "Type"] = .string(xcode)
        } else if enums.contains(name) {
            out[prefix + "Type"] = .string("Integer")
            out[prefix + "EnumType"] = .string(name)
            out[prefix + "EnumTypeNamespace"] = .string(namespace)
        } else {
            out[prefix + "Type"] = .string("Object")
            out[prefix + "ObjectType"] = .string(name)
            out[prefix + "ObjectTypeNamespace"] = .string(namespace)
        }
    }

    private static func simple(_ node: ShapedNode, _ level: XcodeKeys.Level) -> [String: JSON] {
        var out: [String: JSON] = [:]
        for key in level.simple {
            guard let value = node[key.yaml] else { continue }
            if key.kind == .strings { out[key.xcode] = .array(value.items.compactMap(\.scalarValue)) }
            else if let scalar = value.scalarValue, !scalar.isNull { out[key.xcode] = scalar }
        }
        return out
    }
}
