import Foundation
import IntentBusManifest

/// The response half of an intent definition: response parameters, codes and their
/// format strings (DefinitionAssembler.swift has the file, enums, types and intents).
extension DefinitionAssembler {
    // MARK: - Response

    func decodeResponse(_ node: YAMLNode?, intentMark: SourceMark) -> ([ResponseParameterDefinition], [ResponseCodeDefinition]) {
        var parameters: [ResponseParameterDefinition] = []
        var declared: [ResponseCodeDefinition] = []
        var includeGeneric = true
        guard let node, !node.isNull else {
            return ([], Self.genericCodes())
        }
        context.mapping(node) { m -> Void in
            let parameterNodes = m.optional("parameters", as: [YAMLNode].self)
            let codeNodes = m.optional("codes", as: [YAMLNode].self)
            m.allow("output")
            if isStandard { includeGeneric = m.optional("genericCodes", as: Bool.self, default: true) }
            context.withPath(.key("parameters")) {
                for (index, item) in (parameterNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        context.mapping(item) { p -> Void in
                            let name = p.require("name", as: Marked<String>.self)
                            let displayName = p.optional("displayName", as: String.self)
                            let typeName = p.require("type", as: Marked<String>.self)
                            let multiple = p.optional("multiple", as: Bool.self, default: false)
                            p.allow("displayNameID")
                            let type = typeName.flatMap { t in context.withPath(.key("type")) { resolveType(t) } }
                            guard let name, let type else { return }
                            if let problem = Self.identifierProblem(name.value) {
                                context.error(problem, at: name.mark)
                            } else if let first = parameters.first(where: { $0.name == name.value }) {
                                context.error("response parameter '\(name.value)' is declared twice (first at line \(first.mark.line))", at: name.mark)
                            } else {
                                parameters.append(ResponseParameterDefinition(name: name.value, displayName: displayName ?? name.value,
                                                                              type: type, multiple: multiple, mark: name.mark))
                            }
                        }
                    }
                }
            }
            let allowed = Set((parameterNodes ?? []).compactMap { $0["name"]?.scalar?.text })
            context.withPath(.key("codes")) {
                for (index, item) in (codeNodes ?? []).enumerated() {
                    context.withPath(.index(index)) {
                        if let code = decodeCode(item, allowed: allowed, declared: declared) { declared.append(code) }
                    }
                }
            }
        }
        var codes = includeGeneric ? Self.genericCodes() : []
        var nextCustom = GenericResponseCodes.firstCustomValue
        for code in declared {
            if let index = codes.firstIndex(where: { $0.name == code.name }) {
                // A file may give a generic code its own dialog (FONIC's `success`).
                codes[index].formatString = code.formatString
                codes[index].conciseFormatString = code.conciseFormatString
                codes[index].success = code.success
                codes[index].mark = code.mark
                continue
            }
            var code = code
            if code.value < 0 {
                while codes.contains(where: { $0.value == nextCustom }) { nextCustom += 1 }
                code.value = nextCustom
                nextCustom += 1
            }
            codes.append(code)
        }
        if codes.isEmpty {
            context.error("a standard intent without the generic codes must declare its own", at: intentMark)
        }
        return (parameters, codes.sorted { $0.value < $1.value })
    }

    /// One entry of `codes:`. Custom codes get their numbers later (value -1 here),
    /// except in standard intents, which give them.
    func decodeCode(_ node: YAMLNode, allowed: Set<String>, declared: [ResponseCodeDefinition]) -> ResponseCodeDefinition? {
        context.mapping(node) { m -> ResponseCodeDefinition? in
            let name = m.require("name", as: Marked<String>.self)
            let success = m.optional("success", as: Bool.self)
            let value = isStandard ? m.optional("value", as: Marked<Int>.self) : nil
            let format = formatString(m, "formatString", allowed: allowed, what: "a response format string")
            let concise = formatString(m, "conciseFormatString", allowed: allowed, what: "a response format string")
            m.allow("formatStringID", "conciseFormatStringID")
            guard let name else { return nil }
            checkCodeValue(value)
            if let problem = Self.identifierProblem(name.value) {
                context.withPath(.key("name")) { context.error(problem, at: name.mark) }
                return nil
            }
            if let first = declared.first(where: { $0.name == name.value }) {
                context.withPath(.key("name")) {
                    context.error("duplicate response code '\(name.value)' (first at line \(first.mark?.line ?? 0))", at: name.mark)
                }
                return nil
            }
            if let value, let first = declared.first(where: { $0.value == value.value }) {
                context.withPath(.key("value")) {
                    context.error("duplicate response code number \(value.value) (also '\(first.name)')", at: value.mark)
                }
                return nil
            }
            let generic = GenericResponseCodes.all.first { $0.name == name.value }
            return ResponseCodeDefinition(name: name.value, value: value?.value ?? generic?.value ?? -1,
                                          success: success ?? generic?.success ?? false,
                                          formatString: format, conciseFormatString: concise, mark: name.mark)
        }
    }

    static func genericCodes() -> [ResponseCodeDefinition] {
        GenericResponseCodes.all.map {
            ResponseCodeDefinition(name: $0.name, value: $0.value, success: $0.success, formatString: nil,
                                   conciseFormatString: nil, mark: nil)
        }
    }

    // MARK: - Format strings

    /// Reads an optional (or required) format string and checks that every
    /// `${placeholder}` names something in `allowed`, reporting at the placeholder's
    /// own column.
    func formatString(_ m: YAMLMapping, _ key: String, allowed: Set<String>, what: String,
                              required: Bool = false) -> String? {
        guard let node = required ? m.require(key, as: YAMLNode.self) : m.optional(key, as: YAMLNode.self) else { return nil }
        return context.withPath(.key(key)) { () -> String? in
            guard let text = context.decode(node, as: String.self) else { return nil }
            do throws(FormatStringError) {
                for placeholder in try FormatString(text).placeholders() where !allowed.contains(placeholder.name) {
                    var message = "'${\(placeholder.name)}' names no "
                    message += what == "a response format string" ? "response parameter" : "parameter"
                    if let near = YAMLMapping.closest(to: placeholder.name, among: allowed.sorted()) {
                        message += "; did you mean '${\(near)}'?"
                    }
                    let names = allowed.sorted()
                    message += names.isEmpty ? " (there are none; declare them under response.parameters)" : " (known: \(names.joined(separator: ", ")))"
                    context.error(message, at: Self.mark(of: placeholder.offset, in: node))
                }
            } catch {
                context.error("malformed placeholder: \(error.message)", at: Self.mark(of: error.offset, in: node))
            }
            return text
        }
    }

    /// The position of character `offset` of a one-line scalar; the scalar's own mark
    /// when the source form can't be mapped back (block scalars, escapes, line breaks).
    static func mark(of offset: Int, in node: YAMLNode) -> SourceMark {
        // A property list's place is its key path; it has no columns.
        guard let scalar = node.scalar, !scalar.text.contains("\n"), node.mark.keyPath == nil else { return node.mark }
        let shift: Int
        switch scalar.style {
        case .plain: shift = 0
        case .singleQuoted where !scalar.text.contains("'"): shift = 1
        case .doubleQuoted where !scalar.text.contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true }): shift = 1
        default: return node.mark
        }
        return SourceMark(file: node.mark.file, line: node.mark.line, column: node.mark.column + shift + offset)
    }
}
