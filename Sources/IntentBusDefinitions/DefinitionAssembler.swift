import Foundation
import IntentBusCore
import IntentBusManifest

/// Decodes one intent definition file (YAML) into `IntentDefinition`s, reporting every
/// problem to its `YAMLDecodingContext` with `file:line:column`. Used by one thread,
/// once per file. The schema is documented in docs/definitions.md.
package final class DefinitionAssembler {
    let context: YAMLDecodingContext
    let file: String
    /// Standard-domain intents (built in) may number their own codes and leave out the
    /// generic set; definition files may not.
    let isStandard: Bool
    private var enums: [String: EnumDefinition] = [:]
    private var types: [String: CustomTypeDefinition] = [:]
    /// The file's `locale:`; every intent of the file renders its dialogs in it.
    private var locale: DialogLocale = .neutral

    /// Apple's intent categories (the verbs of Xcode's category menu included), which
    /// decide how Siri phrases confirmations.
    static let categories = [
        "generic", "information", "order", "start", "share", "create", "search", "download", "other",
        "do", "run", "go", "view", "open", "book", "buy", "navigate", "play", "post", "send", "add",
        "find", "filter", "set", "request", "toggle", "checkIn",
    ]
    /// Placeholders every parameter dialog may use, beside the intent's parameter names.
    static let dialogPlaceholders = ["value", "count", "displayName", "minimumValue", "maximumValue"]
    /// Apple's advice: more parameters than this make an intent hard to use by voice.
    static let advisedParameterLimit = 5

    init(context: YAMLDecodingContext, file: String, isStandard: Bool) {
        self.context = context
        self.file = file
        self.isStandard = isStandard
    }

    /// Parses and decodes the file's text; problems go to the context.
    func decode(text: String) -> [IntentDefinition] {
        let root: YAMLNode
        do { root = try YAMLParser.parseDocument(text, file: file) } catch {
            error.diagnostics.forEach(context.report)
            return []
        }
        return decode(document: root)
    }

    /// Decodes the file's top node; problems go to the context.
    func decode(document root: YAMLNode) -> [IntentDefinition] {
        context.mapping(root) { m -> [IntentDefinition] in
            if let name = m.optional("locale", as: Marked<String>.self) {
                context.withPath(.key("locale")) {
                    do throws(DialogLocaleError) { locale = try DialogLocale(identifier: name.value) } catch {
                        context.error(error.message, at: name.mark)
                    }
                }
            }
            let enumNodes = m.optional("enums", as: [YAMLNode].self)
            let typeNodes = m.optional("types", as: [YAMLNode].self)
            let intentNodes = m.require("intents", as: [YAMLNode].self)
            context.withPath(.key("enums")) {
                for (index, node) in (enumNodes ?? []).enumerated() {
                    context.withPath(.index(index)) { decodeEnum(node) }
                }
            }
            // Types first by name, so that properties may name each other.
            let typeNames = (typeNodes ?? []).compactMap { $0["name"]?.scalar?.text }
            context.withPath(.key("types")) {
                for (index, node) in (typeNodes ?? []).enumerated() {
                    context.withPath(.index(index)) { decodeType(node, declaredTypes: typeNames) }
                }
            }
            var intents: [IntentDefinition] = []
            var firstMarks: [String: SourceMark] = [:]
            context.withPath(.key("intents")) {
                for (index, node) in (intentNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        guard let intent = decodeIntent(node) else { return }
                        if let first = firstMarks[intent.name] {
                            context.error("intent '\(intent.name)' is defined twice (first at line \(first.line))", at: intent.mark)
                        } else {
                            firstMarks[intent.name] = intent.mark
                            intents.append(intent)
                        }
                    }
                }
            }
            return intents
        } ?? []
    }

    // MARK: - Enums and types

    private func decodeEnum(_ node: YAMLNode) {
        context.mapping(node) { m -> Void in
            let name = m.require("name", as: Marked<String>.self)
            let displayName = m.optional("displayName", as: String.self)
            m.allow("displayNameID")
            let caseNodes = m.require("cases", as: [YAMLNode].self)
            guard let name, checkTypeName(name) else { return }
            var cases: [EnumCaseDefinition] = []
            context.withPath(.key("cases")) {
                for (index, item) in (caseNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        let decoded: (Marked<String>, String?)?
                        if item.scalar != nil {
                            decoded = context.decode(item, as: Marked<String>.self).map { ($0, nil) }
                        } else {
                            decoded = context.mapping(item) { c -> (Marked<String>, String?)? in
                                let caseName = c.require("name", as: Marked<String>.self)
                                let caseDisplay = c.optional("displayName", as: String.self)
                                c.allow("displayNameID")
                                return caseName.map { ($0, caseDisplay) }
                            }
                        }
                        guard let (caseName, caseDisplay) = decoded else { return }
                        if let problem = Self.identifierProblem(caseName.value) {
                            context.error(problem, at: caseName.mark)
                        } else if cases.contains(where: { $0.name == caseName.value }) {
                            context.error("case '\(caseName.value)' is listed twice", at: caseName.mark)
                        } else {
                            cases.append(EnumCaseDefinition(name: caseName.value, displayName: caseDisplay ?? caseName.value))
                        }
                    }
                }
            }
            if caseNodes?.isEmpty == true { context.error("an enum needs at least one case", at: m.mark) }
            enums[name.value] = EnumDefinition(name: name.value, displayName: displayName ?? name.value, cases: cases, mark: name.mark)
        }
    }

    private func decodeType(_ node: YAMLNode, declaredTypes: [String]) {
        context.mapping(node) { m -> Void in
            let name = m.require("name", as: Marked<String>.self)
            let displayName = m.optional("displayName", as: String.self)
            m.allow("displayNameID")
            let propertyNodes = m.optional("properties", as: [YAMLNode].self)
            guard let name, checkTypeName(name) else { return }
            var properties: [(name: String, type: String)] = []
            context.withPath(.key("properties")) {
                for (index, item) in (propertyNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        context.mapping(item) { p -> Void in
                            let propertyName = p.require("name", as: Marked<String>.self)
                            let propertyType = p.require("type", as: Marked<String>.self)
                            // Shown by describe and the generated classes; the host does not use them.
                            p.allow("displayName", "displayNameID", "multiple")
                            if let propertyType { _ = resolveType(propertyType, extraTypes: declaredTypes) }
                            if let propertyName, let propertyType {
                                if let problem = Self.identifierProblem(propertyName.value) {
                                    context.error(problem, at: propertyName.mark)
                                }
                                properties.append((propertyName.value, propertyType.value))
                            }
                        }
                    }
                }
            }
            types[name.value] = CustomTypeDefinition(name: name.value, displayName: displayName ?? name.value,
                                                     properties: properties, mark: name.mark)
        }
    }

    /// A declared enum or type name must be new and not a built-in type.
    private func checkTypeName(_ name: Marked<String>) -> Bool {
        if let problem = Self.identifierProblem(name.value) {
            context.error(problem, at: name.mark)
            return false
        }
        if ParameterType.builtinNames[name.value] != nil {
            context.error("'\(name.value)' is a built-in type; choose another name", at: name.mark)
            return false
        }
        if let first = enums[name.value]?.mark ?? types[name.value]?.mark {
            context.error("type '\(name.value)' is declared twice (first at line \(first.line))", at: name.mark)
            return false
        }
        return true
    }

    /// The type a name refers to, or nil after reporting an unknown name.
    func resolveType(_ name: Marked<String>, extraTypes: [String] = []) -> ParameterType? {
        if let builtin = ParameterType.builtinNames[name.value] { return builtin }
        if enums[name.value] != nil { return .enumeration(name.value) }
        if types[name.value] != nil || extraTypes.contains(name.value) { return .object(name.value) }
        if let system = ParameterType.systemNames[name.value] { return system }
        let known = ParameterType.builtinNames.keys.sorted() + enums.keys.sorted() + types.keys.sorted()
        var message = "unknown type '\(name.value)'"
        if let near = YAMLMapping.closest(to: name.value, among: known) { message += "; did you mean '\(near)'?" }
        message += " (types: \(known.joined(separator: ", ")); declare enums under 'enums:' and custom types under 'types:')"
        context.error(message, at: name.mark)
        return nil
    }

    // MARK: - Intents

    private func decodeIntent(_ node: YAMLNode) -> IntentDefinition? {
        context.mapping(node) { m -> IntentDefinition? in
            let errorsBefore = context.errorCount
            let name = m.require("name", as: Marked<String>.self)
            let title = m.optional("title", as: String.self)
            let description = m.optional("description", as: String.self)
            let category = m.optional("category", as: Marked<String>.self)
            let phrases = m.optional("examplePhrases", as: [String].self, default: [])
            let suggestedPhrase = m.optional("suggestedInvocationPhrase", as: String.self)
            let parameterNodes = m.optional("parameters", as: [YAMLNode].self)
            let responseNode = m.node(for: "response")
            // Kept for the other form (`definitions convert`) and the generated classes.
            m.allow("titleID", "descriptionID", "suggestedInvocationPhraseID", "verb", "ineligibleForSuggestions",
                    "eligibleForWidgets", "input")
            let configurable = m.optional("configurable", as: Bool.self, default: false)
            let keyParameter = m.optional("keyParameter", as: Marked<String>.self)
            let combinationNodes = m.optional("parameterCombinations", as: [YAMLNode].self)

            if let name, let problem = Self.intentNameProblem(name.value) { context.error(problem, at: name.mark) }
            if let category, !Self.categories.contains(category.value) {
                var message = "unknown category '\(category.value)'"
                if let near = YAMLMapping.closest(to: category.value, among: Self.categories) { message += "; did you mean '\(near)'?" }
                context.withPath(.key("category")) {
                    context.error(message + " (categories: \(Self.categories.joined(separator: ", ")))", at: category.mark)
                }
            }
            let parameterNames = (parameterNodes ?? []).compactMap { $0["name"]?.scalar?.text }
            var parameters: [ParameterDefinition] = []
            context.withPath(.key("parameters")) {
                for (index, item) in (parameterNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        // Duplicates by the names as written, so that one is found even
                        // when the first declaration has errors of its own.
                        let earlier = (parameterNodes ?? [])[..<index].compactMap { $0["name"] }
                        if let nameNode = item["name"], let first = earlier.first(where: { $0.scalar?.text == nameNode.scalar?.text }) {
                            context.error("parameter '\(nameNode.scalar?.text ?? "")' is declared twice (first at line \(first.mark.line))", at: nameNode.mark)
                            return
                        }
                        if let parameter = decodeParameter(item, siblings: parameterNames) { parameters.append(parameter) }
                    }
                }
            }
            if let parameterNodes, parameterNodes.count > Self.advisedParameterLimit, let mark = m.keyMark(for: "parameters") {
                context.withPath(.key("parameters")) {
                    context.warning("\(name?.value ?? "the intent") has \(parameterNodes.count) parameters; Apple advises at most \(Self.advisedParameterLimit), as more make an intent hard to use by voice", at: mark)
                }
            }
            if let keyParameter, !parameterNames.contains(keyParameter.value) {
                context.withPath(.key("keyParameter")) {
                    context.error("keyParameter '\(keyParameter.value)' names no parameter of the intent", at: keyParameter.mark)
                }
            }
            let combinations = context.withPath(.key("parameterCombinations")) {
                decodeCombinations(combinationNodes ?? [], parameterNames: parameterNames)
            }
            var responseParameters: [ResponseParameterDefinition] = []
            var codes: [ResponseCodeDefinition] = []
            context.withPath(.key("response")) {
                (responseParameters, codes) = decodeResponse(responseNode, intentMark: m.mark)
            }
            guard context.errorCount == errorsBefore, let name else { return nil }
            return IntentDefinition(
                name: name.value, title: title ?? name.value, description: description,
                category: category?.value ?? "generic", examplePhrases: phrases,
                parameters: parameters, responseParameters: responseParameters, codes: codes,
                enums: enums, types: types, isStandard: isStandard, mark: name.mark, locale: locale,
                suggestedInvocationPhrase: suggestedPhrase, configurable: configurable,
                keyParameter: keyParameter?.value, parameterCombinations: combinations)
        }
    }

    private func decodeParameter(_ node: YAMLNode, siblings: [String]) -> ParameterDefinition? {
        context.mapping(node) { m -> ParameterDefinition? in
            let errorsBefore = context.errorCount
            let name = m.require("name", as: Marked<String>.self)
            let displayName = m.optional("displayName", as: String.self)
            let description = m.optional("description", as: String.self)
            let typeName = m.require("type", as: Marked<String>.self)
            let required = m.optional("required", as: Bool.self, default: false)
            let multiple = m.optional("multiple", as: Bool.self, default: false)
            let defaultNode = m.node(for: "default")
            let minimum = m.optional("minimum", as: Marked<Double>.self)
            let maximum = m.optional("maximum", as: Marked<Double>.self)
            let promptsNode = m.node(for: "prompts")
            let reasonNodes = m.optional("unsupportedReasons", as: [YAMLNode].self)
            let dynamicOptions = m.optional("dynamicOptions", as: Bool.self, default: false)
            let trueName = m.optional("trueDisplayName", as: String.self)
            let falseName = m.optional("falseDisplayName", as: String.self)
            // Kept for the other form and the generated classes; no meaning to the host's flow.
            m.allow("displayNameID", "descriptionID", "configurable", "supportsResolution", "customDisambiguation", "fixedSize",
                    "fixedSizes", "trueDisplayNameID", "falseDisplayNameID", "defaultID", "valueKind", "fileTypes", "relationship")

            if let name, let problem = Self.identifierProblem(name.value) { context.withPath(.key("name")) { context.error(problem, at: name.mark) } }
            let type = typeName.flatMap { t in context.withPath(.key("type")) { resolveType(t) } }
            let allowed = Set(Self.dialogPlaceholders + siblings)
            var prompts = PromptDialogs()
            if let promptsNode, !promptsNode.isNull {
                context.withPath(.key("prompts")) {
                    context.mapping(promptsNode) { p -> Void in
                        prompts.primary = formatString(p, "primary", allowed: allowed, what: "a prompt")
                        prompts.confirmation = formatString(p, "confirmation", allowed: allowed, what: "a prompt")
                        prompts.disambiguationIntroduction = formatString(p, "disambiguationIntroduction", allowed: allowed, what: "a prompt")
                        prompts.disambiguationSelection = formatString(p, "disambiguationSelection", allowed: allowed, what: "a prompt")
                        prompts.configuration = formatString(p, "configuration", allowed: allowed, what: "a prompt")
                        p.allow("primaryID", "confirmationID", "disambiguationIntroductionID", "disambiguationSelectionID", "configurationID")
                    }
                }
            }
            var reasons: [UnsupportedReason] = []
            context.withPath(.key("unsupportedReasons")) {
                for (index, item) in (reasonNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        context.mapping(item) { r -> Void in
                            let code = r.require("code", as: Marked<String>.self)
                            let text = formatString(r, "formatString", allowed: allowed, what: "an unsupported reason", required: true)
                            r.allow("formatStringID")
                            guard let code, let text else { return }
                            if let problem = Self.identifierProblem(code.value) {
                                context.error(problem, at: code.mark)
                            } else if let first = reasons.first(where: { $0.code == code.value }) {
                                context.error("unsupported reason '\(code.value)' is declared twice (first at line \(first.mark.line))", at: code.mark)
                            } else {
                                reasons.append(UnsupportedReason(code: code.value, formatString: text, mark: code.mark))
                            }
                        }
                    }
                }
            }
            if let type, !type.isRanged {
                for (key, bound) in [("minimum", minimum), ("maximum", maximum)] {
                    if let bound {
                        context.withPath(.key(key)) { context.error("\(type) parameters have no \(key); only Integer, Decimal, Duration and CurrencyAmount do" + (type == .date ? DateRanges.why : ""), at: bound.mark) }
                    }
                }
            }
            checkBound(minimum, key: "minimum")
            checkBound(maximum, key: "maximum")
            if let minimum, let maximum, minimum.value > maximum.value {
                context.withPath(.key("maximum")) {
                    context.error("maximum \(JSON.double(maximum.value).displayText) is below minimum \(JSON.double(minimum.value).displayText)", at: maximum.mark)
                }
            }
            guard context.errorCount == errorsBefore, let name, let type else { return nil }
            var parameter = ParameterDefinition(
                name: name.value, displayName: displayName ?? name.value, description: description, type: type,
                required: required, multiple: multiple, defaultValue: nil, minimum: minimum?.value, maximum: maximum?.value,
                prompts: prompts, unsupportedReasons: reasons, mark: name.mark, dynamicOptions: dynamicOptions,
                booleanNames: trueName.map { ($0, falseName ?? "false") })
            if let defaultNode, !defaultNode.isNull {
                // The default must itself be a valid value: it is what the plugin receives.
                let probe = IntentDefinition(name: "", title: "", description: nil, category: "generic", examplePhrases: [],
                                             parameters: [], responseParameters: [], codes: [], enums: enums, types: types,
                                             isStandard: isStandard, mark: name.mark)
                switch ParameterCoercion.coerce(defaultNode.json, parameter, in: probe) {
                case .success(let value): parameter.defaultValue = value
                case .failure(let problem):
                    context.withPath(.key("default")) { context.error("invalid default: \(problem.message)", at: defaultNode.mark) }
                    return nil
                }
            }
            return parameter
        }
    }

    // MARK: - Helpers

    static func identifierProblem(_ name: String) -> String? {
        guard let first = name.first else { return "names must not be empty" }
        guard first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return "'\(name)' is not a valid name; use letters, digits and '_', starting with a letter"
        }
        return nil
    }

    static func intentNameProblem(_ name: String) -> String? {
        if let problem = ManifestAssembler.intentNameProblem(name) { return problem }
        return identifierProblem(name)
    }
}
