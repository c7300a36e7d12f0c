internal import CYAML

/// Turns YAML text into `YAMLNode` trees with libyaml's event parser.
///
/// This is the only file that sees libyaml: its types and pointers stay inside
/// `parse`. Each call owns its own `yaml_parser_t`, so parsing is safe from any
/// thread.
package enum YAMLParser {
    /// The most nodes that aliases may expand to in one stream. A handful of nested
    /// aliases can otherwise describe billions of nodes ("billion laughs").
    static let aliasExpansionLimit = 100_000

    /// The deepest nesting of lists and mappings a document may have, aliases
    /// included. Manifests and definitions need fewer than ten levels; the bound keeps
    /// every recursive walk over a tree (decoding, copying, freeing) far from the
    /// stack's end, whatever the input (docs/reliability.md, "Limits").
    package static let maximumNestingDepth = 100

    /// Parses a file that must hold exactly one YAML document.
    ///
    /// - Throws: `ConfigError` for a syntax error (at libyaml's problem mark, with its
    ///   problem text), an unknown alias, an empty file (no document at all), or a
    ///   second document.
    package static func parseDocument(_ text: String, file: String) throws(ConfigError) -> YAMLNode {
        let documents = try parseStream(text, file: file)
        guard let first = documents.first else {
            throw ConfigError([ConfigDiagnostic(
                SourceMark(file: file, line: 1, column: 1),
                "the file is empty; expected a YAML document")])
        }
        if documents.count > 1 {
            throw ConfigError([ConfigDiagnostic(
                documents[1].mark, "expected a single YAML document, found a second one")])
        }
        return first
    }

    /// Parses every document of a YAML stream, in order. An empty stream gives `[]`.
    package static func parseStream(_ text: String, file: String) throws(ConfigError) -> [YAMLNode] {
        let bytes = Array(text.utf8)
        // libyaml keeps a pointer to the input for the whole parse, so the copy must
        // outlive the parser; a manual allocation makes that lifetime explicit.
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        defer { input.deallocate() }
        _ = input.initialize(from: bytes)

        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw ConfigError([ConfigDiagnostic(
                SourceMark(file: file, line: 1, column: 1), "libyaml could not allocate a parser")])
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, input.baseAddress, bytes.count)

        var builder = TreeBuilder(file: file)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                throw ConfigError([syntaxError(parser, bytes: bytes, file: file)])
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { break }
            builder.consume(event)
            // Too deep: stop at once, before a deeper tree is built.
            if builder.isTooDeep { break }
        }
        if !builder.diagnostics.isEmpty { throw ConfigError(builder.diagnostics) }
        return builder.documents
    }

    /// The diagnostic for a failed `yaml_parser_parse`, in libyaml's words.
    private static func syntaxError(_ parser: yaml_parser_t, bytes: [UInt8], file: String) -> ConfigDiagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        var mark = sourceMark(parser.problem_mark, file: file)
        var message: String
        switch parser.error {
        case YAML_READER_ERROR:
            // Reader errors (bad UTF-8, control characters) carry an offset, not a mark.
            mark = sourceMark(byteOffset: parser.problem_offset, in: bytes, file: file)
            message = "invalid text: \(problem)"
        case YAML_MEMORY_ERROR:
            message = "libyaml ran out of memory"
        default:
            message = "YAML syntax error: \(problem)"
        }
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextMark = sourceMark(parser.context_mark, file: file)
            message += " (\(context) at line \(contextMark.line), column \(contextMark.column))"
        }
        return ConfigDiagnostic(mark, message)
    }

    static func sourceMark(_ mark: yaml_mark_t, file: String) -> SourceMark {
        SourceMark(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func sourceMark(byteOffset: Int, in bytes: [UInt8], file: String) -> SourceMark {
        let prefix = bytes.prefix(byteOffset)
        let line = prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        // Count characters, not bytes, as libyaml's own marks do.
        let column = String(decoding: bytes[lineStart..<byteOffset], as: UTF8.self).count + 1
        return SourceMark(file: file, line: line, column: column)
    }
}

/// Builds nodes from the event stream: a stack of open collections, the anchors seen
/// so far, and the finished documents.
struct TreeBuilder {
    /// An open collection waiting for its end event.
    private struct OpenCollection {
        enum Kind { case sequence, mapping }
        var kind: Kind
        var mark: SourceMark
        var tag: String?
        var anchor: String?
        var items: [YAMLNode] = []
        /// Nodes in this subtree, counting alias expansions; see `aliasExpansionLimit`.
        var size = 1
        /// Levels of collections in this subtree, this one included.
        var height = 1
    }

    let file: String
    private(set) var documents: [YAMLNode] = []
    private(set) var diagnostics: [ConfigDiagnostic] = []
    private var stack: [OpenCollection] = []
    private var anchors: [String: (node: YAMLNode, size: Int, height: Int)] = [:]
    private var expandedNodes = 0
    private var reportedExpansionLimit = false
    /// Set when a collection or alias went past `maximumNestingDepth`; parsing stops.
    private(set) var isTooDeep = false

    init(file: String) { self.file = file }

    mutating func consume(_ event: yaml_event_t) {
        let mark = YAMLParser.sourceMark(event.start_mark, file: file)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            // Anchors are scoped to their document.
            anchors = [:]
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let node = YAMLNode(
                .scalar(YAMLScalar(text, style: style(data.style))), mark: mark, tag: string(data.tag))
            finish(node, size: 1, height: 0, anchor: string(data.anchor))
        case YAML_ALIAS_EVENT:
            let name = string(event.data.alias.anchor) ?? ""
            guard let (node, size, height) = anchors[name] else {
                diagnostics.append(ConfigDiagnostic(mark, "unknown alias '*\(name)': no anchor '&\(name)' before it"))
                finish(YAMLNode(.scalar(YAMLScalar("")), mark: mark), size: 1, height: 0, anchor: nil)
                return
            }
            guard checkDepth(stack.count + height, at: mark, alias: name) else { return }
            expandedNodes += size
            if expandedNodes > YAMLParser.aliasExpansionLimit {
                if !reportedExpansionLimit {
                    reportedExpansionLimit = true
                    diagnostics.append(ConfigDiagnostic(
                        mark, "aliases expand to more than \(YAMLParser.aliasExpansionLimit) nodes"))
                }
                finish(YAMLNode(.scalar(YAMLScalar("")), mark: mark), size: 1, height: 0, anchor: nil)
                return
            }
            finish(node, size: size, height: height, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            guard checkDepth(stack.count + 1, at: mark, alias: nil) else { return }
            let data = event.data.sequence_start
            stack.append(OpenCollection(
                kind: .sequence, mark: mark, tag: string(data.tag), anchor: string(data.anchor)))
        case YAML_MAPPING_START_EVENT:
            guard checkDepth(stack.count + 1, at: mark, alias: nil) else { return }
            let data = event.data.mapping_start
            stack.append(OpenCollection(
                kind: .mapping, mark: mark, tag: string(data.tag), anchor: string(data.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let open = stack.popLast() else { return }
            let content: YAMLNode.Content
            switch open.kind {
            case .sequence:
                content = .sequence(open.items)
            case .mapping:
                content = .mapping(applyingMergeKeys(pairs(open.items)))
            }
            finish(YAMLNode(content, mark: open.mark, tag: open.tag), size: open.size, height: open.height,
                   anchor: open.anchor)
        default:
            break
        }
    }

    /// Reports, once, a document nested deeper than `maximumNestingDepth`; false then.
    private mutating func checkDepth(_ depth: Int, at mark: SourceMark, alias: String?) -> Bool {
        guard depth > YAMLParser.maximumNestingDepth else { return true }
        let through = alias.map { " (through the alias '*\($0)')" } ?? ""
        diagnostics.append(ConfigDiagnostic(
            mark, "lists and mappings are nested more than \(YAMLParser.maximumNestingDepth) levels deep\(through)"))
        isTooDeep = true
        return false
    }

    /// Hands a completed node to its parent, or makes it a document's root.
    private mutating func finish(_ node: YAMLNode, size: Int, height: Int, anchor: String?) {
        if let anchor { anchors[anchor] = (node, size, height) }
        if stack.isEmpty {
            documents.append(node)
        } else {
            stack[stack.count - 1].items.append(node)
            stack[stack.count - 1].size += size
            stack[stack.count - 1].height = max(stack[stack.count - 1].height, height + 1)
        }
    }

    /// Mapping events alternate key, value; libyaml guarantees an even count.
    private func pairs(_ items: [YAMLNode]) -> [YAMLNode.Pair] {
        stride(from: 0, to: items.count - 1, by: 2).map { YAMLNode.Pair(key: items[$0], value: items[$0 + 1]) }
    }

    /// Applies YAML's `<<` merge keys: the merged mappings' pairs are added after the
    /// explicit ones, and keys the mapping sets itself win.
    private mutating func applyingMergeKeys(_ pairs: [YAMLNode.Pair]) -> [YAMLNode.Pair] {
        func isMergeKey(_ key: YAMLNode) -> Bool { key.isUntypedPlainScalar && key.scalar?.text == "<<" }
        guard pairs.contains(where: { isMergeKey($0.key) }) else { return pairs }

        var result = pairs.filter { !isMergeKey($0.key) }
        var seen = Set(result.compactMap { $0.key.scalar?.text })
        for pair in pairs where isMergeKey(pair.key) {
            let sources: [YAMLNode]
            switch pair.value.content {
            case .mapping: sources = [pair.value]
            case .sequence(let items): sources = items
            case .scalar: sources = [pair.value]
            }
            for source in sources {
                guard let merged = source.mapping else {
                    diagnostics.append(ConfigDiagnostic(
                        source.mark, "a '<<' merge key needs a mapping or a list of mappings, got \(source.kindDescription)"))
                    continue
                }
                for mergedPair in merged {
                    guard let key = mergedPair.key.scalar?.text, !seen.contains(key) else { continue }
                    seen.insert(key)
                    result.append(mergedPair)
                }
            }
        }
        return result
    }

    private func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }

    /// A libyaml string (tag or anchor). The non-specific tag `!` is kept: on a
    /// scalar it means "a string", which is what any non-nil tag other than `!!null`
    /// means to `YAMLNode.isUntypedPlainScalar`.
    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
