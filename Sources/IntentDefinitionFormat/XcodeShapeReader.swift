import IntentBusCore

/// Turns a (localized) `.intentdefinition` property list into the YAML form's shape,
/// checking it on the way: a value of the wrong kind or an unknown parameter type is an
/// error naming the key path; a key with no meaning here is a warning; Xcode's
/// bookkeeping (tags, priorities, namespaces, versions) is dropped silently.
///
/// One reader per file, used by one thread.
package final class XcodeShapeReader {
    package let file: String
    package private(set) var diagnostics: [FormatDiagnostic] = []
    /// Device-only keys seen, with the first place: reported once per key.
    private var deviceOnly: [String: (path: String, count: Int)] = [:]
    private var enumNames: Set<String> = []

    package init(file: String) { self.file = file }

    /// The shape of the whole file; nil when its top is not a dictionary.
    package func read(_ root: JSON) -> ShapedNode? {
        guard let top = root.objectValue else {
            error("", "the top of an intent definition is a dictionary, not \(root.typeName)")
            return nil
        }
        var out: [ShapedNode.Entry] = []
        enumNames = Set((top["INEnums"]?.arrayValue ?? []).compactMap { $0["INEnumName"]?.stringValue })
        list(top, "INEnums", at: "", as: "enums", into: &out, item: enumeration)
        list(top, "INTypes", at: "", as: "types", into: &out, item: customType)
        list(top, "INIntents", at: "", as: "intents", into: &out, item: intent)
        finish(top, at: "", level: XcodeKeys.root, handled: ["INEnums", "INTypes", "INIntents"])
        for (key, seen) in deviceOnly.sorted(by: { $0.key < $1.key }) {
            warning(seen.path, "\(key) (\(seen.count)×) is a hint for the Shortcuts editor's keyboard; it has no meaning here and is ignored")
        }
        return ShapedNode(.map(out), origin: "")
    }

    // MARK: - Levels

    private func enumeration(_ d: [String: JSON], _ path: String) -> [ShapedNode.Entry] {
        var out = simple(d, at: path, level: XcodeKeys.enumeration)
        list(d, "INEnumValues", at: path, as: "cases", into: &out) { v, p in
            let c = simple(v, at: p, level: XcodeKeys.enumValue)
            finish(v, at: p, level: XcodeKeys.enumValue, handled: [])
            return c
        }
        finish(d, at: path, level: XcodeKeys.enumeration, handled: ["INEnumValues"])
        return out
    }

    private func customType(_ d: [String: JSON], _ path: String) -> [ShapedNode.Entry] {
        var out = simple(d, at: path, level: XcodeKeys.type)
        var properties: [ShapedNode] = []
        for (index, item) in (array(d, "INTypeProperties", at: path) ?? []).enumerated() {
            let p = "\(path).INTypeProperties[\(index)]"
            guard let property = dictionary(item, at: p) else { continue }
            // INObject's own properties: every custom type has them, YAML does not list them.
            if property["INTypePropertyDefault"]?.boolValue == true { continue }
            var entries = simple(property, at: p, level: XcodeKeys.property)
            typeEntry(property, prefix: "INTypeProperty", at: p, into: &entries)
            finish(property, at: p, level: XcodeKeys.property, handled: ["INTypePropertyDefault", "INTypePropertyType",
                                                                             "INTypePropertyObjectType", "INTypePropertyEnumType"])
            properties.append(ShapedNode(.map(entries), origin: p))
        }
        if !properties.isEmpty { out.append(.init("properties", ShapedNode(.list(properties), origin: "\(path).INTypeProperties"))) }
        finish(d, at: path, level: XcodeKeys.type, handled: ["INTypeProperties"])
        return out
    }

    private func intent(_ d: [String: JSON], _ path: String) -> [ShapedNode.Entry] {
        var out = simple(d, at: path, level: XcodeKeys.intent)
        list(d, "INIntentParameters", at: path, as: "parameters", into: &out, item: parameter)
        var combinations: [ShapedNode] = []
        for (key, managed) in [("INIntentParameterCombinations", false), ("INIntentManagedParameterCombinations", true)] {
            guard let value = d[key] else { continue }
            let p = "\(path).\(key)"
            guard let table = dictionary(value, at: p) else { continue }
            for (names, item) in table.sorted(by: { $0.key < $1.key }) {
                let itemPath = "\(p).\(names)"
                guard let c = dictionary(item, at: itemPath) else { continue }
                var entries: [ShapedNode.Entry] = [.init("parameters", .scalar(.string(names), origin: itemPath))]
                if managed { entries.append(.init("managed", .scalar(.bool(true), origin: itemPath))) }
                entries += simple(c, at: itemPath, level: XcodeKeys.combination)
                finish(c, at: itemPath, level: XcodeKeys.combination, handled: [])
                combinations.append(ShapedNode(.map(entries), origin: itemPath))
            }
        }
        if !combinations.isEmpty { out.append(.init("parameterCombinations", ShapedNode(.list(combinations), origin: path))) }
        if let response = d["INIntentResponse"] {
            let p = "\(path).INIntentResponse"
            if let r = dictionary(response, at: p) {
                var entries = simple(r, at: p, level: XcodeKeys.response)
                list(r, "INIntentResponseParameters", at: p, as: "parameters", into: &entries) { v, q in
                    var e = simple(v, at: q, level: XcodeKeys.responseParameter)
                    typeEntry(v, prefix: "INIntentResponseParameter", at: q, into: &e)
                    finish(v, at: q, level: XcodeKeys.responseParameter, handled: ["INIntentResponseParameterType",
                        "INIntentResponseParameterObjectType", "INIntentResponseParameterEnumType"])
                    return e
                }
                list(r, "INIntentResponseCodes", at: p, as: "codes", into: &entries) { v, q in
                    let e = simple(v, at: q, level: XcodeKeys.code)
                    finish(v, at: q, level: XcodeKeys.code, handled: [])
                    return e
                }
                finish(r, at: p, level: XcodeKeys.response, handled: ["INIntentResponseParameters", "INIntentResponseCodes"])
                out.append(.init("response", ShapedNode(.map(entries), origin: p)))
            }
        }
        if let type = d["INIntentType"]?.stringValue, type != "Custom" {
            warning("\(path).INIntentType", "'\(type)' intents are Apple's own; this one is read as a custom intent")
        }
        finish(d, at: path, level: XcodeKeys.intent, handled: ["INIntentParameters", "INIntentResponse",
            "INIntentParameterCombinations", "INIntentManagedParameterCombinations"])
        return out
    }

    private func parameter(_ d: [String: JSON], _ path: String) -> [ShapedNode.Entry] {
        var out = simple(d, at: path, level: XcodeKeys.parameter)
        typeEntry(d, prefix: "INIntentParameter", at: path, into: &out)
        if let dialogs = array(d, "INIntentParameterPromptDialogs", at: path) {
            var prompts: [ShapedNode.Entry] = []
            for (index, item) in dialogs.enumerated() {
                let p = "\(path).INIntentParameterPromptDialogs[\(index)]"
                guard let dialog = dictionary(item, at: p) else { continue }
                let level = XcodeKeys.Level(name: "prompt dialog", simple: [], bookkeeping: ["INIntentParameterPromptDialogCustom"])
                finish(dialog, at: p, level: level, handled: ["INIntentParameterPromptDialogType",
                    "INIntentParameterPromptDialogFormatString", "INIntentParameterPromptDialogFormatStringID"])
                guard let type = dialog["INIntentParameterPromptDialogType"]?.stringValue, XcodeKeys.promptTypes.contains(type) else {
                    warning("\(p).INIntentParameterPromptDialogType", "unknown prompt dialog type '\(dialog["INIntentParameterPromptDialogType"]?.stringValue ?? "")' (known: \(XcodeKeys.promptTypes.joined(separator: ", "))); ignored")
                    continue
                }
                // A dialog without text is Xcode's "use the default" entry.
                guard let text = dialog["INIntentParameterPromptDialogFormatString"]?.stringValue else { continue }
                let key = type.prefix(1).lowercased() + type.dropFirst()
                prompts.append(.init(key, .scalar(.string(text), origin: p)))
                if let id = dialog["INIntentParameterPromptDialogFormatStringID"]?.stringValue {
                    prompts.append(.init(key + "ID", .scalar(.string(id), origin: p)))
                }
            }
            // In Xcode's order of the dialog types, as the writer writes them.
            let rank = { (key: String) in XcodeKeys.promptTypes.firstIndex { key.hasPrefix($0.prefix(1).lowercased() + $0.dropFirst()) } ?? 0 }
            prompts = prompts.enumerated().sorted { (rank($0.element.key), $0.offset) < (rank($1.element.key), $1.offset) }.map(\.element)
            if !prompts.isEmpty { out.append(.init("prompts", ShapedNode(.map(prompts), origin: "\(path).INIntentParameterPromptDialogs"))) }
        }
        if let metadata = d["INIntentParameterMetadata"], let m = dictionary(metadata, at: "\(path).INIntentParameterMetadata") {
            let p = "\(path).INIntentParameterMetadata"
            out += simple(m, at: p, level: XcodeKeys.metadata)
            if let utis = array(m, "INIntentParameterMetadataCustomUTIs", at: p) {
                let origin = "\(p).INIntentParameterMetadataCustomUTIs"
                let names = utis.compactMap { $0["UTI"]?.stringValue }.map { ShapedNode.scalar(.string($0), origin: origin) }
                out.append(.init("fileTypes", ShapedNode(.list(names), origin: origin)))
            }
            for key in m.keys where XcodeKeys.deviceOnlyMetadata.contains(key) {
                deviceOnly[key, default: ("\(p).\(key)", 0)].count += 1
            }
            finish(m, at: p, level: XcodeKeys.metadata, handled: XcodeKeys.deviceOnlyMetadata.union(["INIntentParameterMetadataCustomUTIs"]))
        }
        if let relation = d["INIntentParameterRelationship"], let r = dictionary(relation, at: "\(path).INIntentParameterRelationship") {
            let p = "\(path).INIntentParameterRelationship"
            out.append(.init("relationship", ShapedNode(.map(simple(r, at: p, level: XcodeKeys.relationship)), origin: p)))
            finish(r, at: p, level: XcodeKeys.relationship, handled: [])
        }
        if let sizes = array(d, "INIntentParameterArraySizes", at: path) {
            var entries: [ShapedNode.Entry] = []
            for (index, item) in sizes.enumerated() {
                let p = "\(path).INIntentParameterArraySizes[\(index)]"
                guard let size = item["INIntentParameterArraySizeSize"]?.intValue, let sizeClass = item["INIntentParameterArraySizeSizeClass"]?.stringValue else {
                    error(p, "an array size needs INIntentParameterArraySizeSize (an integer) and INIntentParameterArraySizeSizeClass (a string)")
                    continue
                }
                entries.append(.init(sizeClass, .scalar(.int(size), origin: p)))
            }
            out.append(.init("fixedSizes", ShapedNode(.map(entries), origin: "\(path).INIntentParameterArraySizes")))
        }
        list(d, "INIntentParameterUnsupportedReasons", at: path, as: "unsupportedReasons", into: &out) { v, q in
            let e = simple(v, at: q, level: XcodeKeys.reason)
            finish(v, at: q, level: XcodeKeys.reason, handled: [])
            return e
        }
        finish(d, at: path, level: XcodeKeys.parameter, handled: ["INIntentParameterType", "INIntentParameterObjectType",
            "INIntentParameterEnumType", "INIntentParameterPromptDialogs", "INIntentParameterMetadata",
            "INIntentParameterRelationship", "INIntentParameterArraySizes", "INIntentParameterUnsupportedReasons"])
        return out
    }

    // MARK: - Pieces

    /// `<prefix>Type` (with `<prefix>ObjectType` / `<prefix>EnumType`) as YAML's `type:`.
    private func typeEntry(_ d: [String: JSON], prefix: String, at path: String, into out: inout [ShapedNode.Entry]) {
        let key = prefix + "Type"
        guard let value = d[key] else { return error(path, "\(key) is missing") }
        let p = "\(path).\(key)"
        guard let name = value.stringValue else { return error(p, "expected a string, got \(value.typeName)") }
        if let enumName = d[prefix + "EnumType"]?.stringValue {
            guard enumNames.contains(enumName) else { return error("\(path).\(prefix)EnumType", "unknown enum '\(enumName)' (INEnums declares: \(enumNames.sorted().joined(separator: ", ")))") }
            out.append(.init("type", .scalar(.string(enumName), origin: p)))
        } else if name == "Object" {
            guard let object = d[prefix + "ObjectType"]?.stringValue else { return error(path, "an Object needs \(prefix)ObjectType") }
            out.append(.init("type", .scalar(.string(object), origin: "\(path).\(prefix)ObjectType")))
        } else if let yaml = XcodeKeys.types[name] {
            out.append(.init("type", .scalar(.string(yaml), origin: p)))
        } else {
            error(p, "unknown type '\(name)' (supported: \((XcodeKeys.types.keys.sorted() + ["Object"]).joined(separator: ", ")))")
        }
    }

    /// The level's one-to-one keys, checked for their kind.
    private func simple(_ d: [String: JSON], at path: String, level: XcodeKeys.Level) -> [ShapedNode.Entry] {
        var out: [ShapedNode.Entry] = []
        for key in level.simple {
            guard let value = d[key.xcode] else { continue }
            let p = path.isEmpty ? key.xcode : "\(path).\(key.xcode)"
            let fits: Bool = switch key.kind {
            case .string: value.stringValue != nil
            case .bool: value.boolValue != nil
            case .number: value.doubleValue != nil
            case .any: value.arrayValue == nil && value.objectValue == nil
            case .strings: value.arrayValue?.allSatisfy { $0.stringValue != nil } == true
            }
            guard fits else {
                let expected = switch key.kind {
                case .bool: "a boolean"
                case .number: "a number"
                case .strings: "an array of strings"
                default: "a string"
                }
                error(p, "expected \(expected), got \(value.typeName)")
                continue
            }
            if key.kind == .strings {
                out.append(.init(key.yaml, ShapedNode(.list((value.arrayValue ?? []).map { .scalar($0, origin: p) }), origin: p)))
            } else {
                out.append(.init(key.yaml, .scalar(value, origin: p)))
            }
        }
        return out
    }

    /// Warns about every key of `d` that is neither read nor bookkeeping.
    private func finish(_ d: [String: JSON], at path: String, level: XcodeKeys.Level, handled: Set<String>) {
        let known = Set(level.simple.map(\.xcode)).union(level.bookkeeping).union(handled)
        for key in d.keys.sorted() where !known.contains(key) {
            warning(path.isEmpty ? key : "\(path).\(key)", "key '\(key)' has no meaning in a \(level.name) here; ignored")
        }
    }

    private func list(_ d: [String: JSON], _ key: String, at path: String, as yaml: String, into out: inout [ShapedNode.Entry],
                      item: ([String: JSON], String) -> [ShapedNode.Entry]) {
        guard let items = array(d, key, at: path) else { return }
        let base = path.isEmpty ? key : "\(path).\(key)"
        var nodes: [ShapedNode] = []
        for (index, value) in items.enumerated() {
            let p = "\(base)[\(index)]"
            guard let dict = dictionary(value, at: p) else { continue }
            nodes.append(ShapedNode(.map(item(dict, p)), origin: p))
        }
        out.append(.init(yaml, ShapedNode(.list(nodes), origin: base)))
    }

    private func array(_ d: [String: JSON], _ key: String, at path: String) -> [JSON]? {
        guard let value = d[key] else { return nil }
        guard let items = value.arrayValue else {
            error(path.isEmpty ? key : "\(path).\(key)", "expected an array, got \(value.typeName)")
            return nil
        }
        return items
    }

    private func dictionary(_ value: JSON, at path: String) -> [String: JSON]? {
        guard let d = value.objectValue else {
            error(path, "expected a dictionary, got \(value.typeName)")
            return nil
        }
        return d
    }

    private func error(_ path: String, _ message: String) {
        diagnostics.append(FormatDiagnostic(file: file, keyPath: path, message))
    }

    private func warning(_ path: String, _ message: String) {
        diagnostics.append(FormatDiagnostic(file: file, keyPath: path, message, severity: .warning))
    }
}
