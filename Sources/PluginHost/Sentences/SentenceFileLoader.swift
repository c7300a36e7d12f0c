import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusSentences

/// Reads sentence files in Home Assistant's format (`intents:` with `data:` blocks,
/// `lists:`, `expansion_rules:`, `skip_words:`) into `IntentTemplates`. Every template
/// keeps its file:line:col, so a parse or reference error points at the character.
package enum SentenceFileLoader {
    /// What went wrong reading a file: its YAML, its shape, or a template.
    package struct LoadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Loads one file.
    package static func load(path: String) throws(LoadError) -> IntentTemplates {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw LoadError(description: "\(path): cannot read the file")
        }
        return try load(text: text, file: path)
    }

    /// Loads every `*.yaml` file in `directory` and its subdirectories, in name order.
    package static func load(directory: String) throws(LoadError) -> IntentTemplates {
        var templates = IntentTemplates()
        for path in yamlFiles(in: directory) { templates.merge(try load(path: path)) }
        return templates
    }

    static func yamlFiles(in directory: String) -> [String] {
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory + "/" + $0 }
    }

    /// Loads the YAML `text` of `file`.
    package static func load(text: String, file: String) throws(LoadError) -> IntentTemplates {
        let root: YAMLNode
        do { root = try YAMLParser.parseDocument(text, file: file) } catch { throw LoadError(description: error.description) }
        var templates = IntentTemplates()
        do {
            if let rules = root["expansion_rules"]?.mapping {
                for pair in rules { templates.rules[key(pair)] = try sentence(pair.value) }
            }
            if let lists = root["lists"]?.mapping {
                for pair in lists { templates.lists[key(pair)] = try list(pair.value) }
            }
            for word in root["skip_words"]?.sequence ?? [] { if let w = word.scalar?.text { templates.skipWords.append(w) } }
            for intent in root["intents"]?.mapping ?? [] {
                for data in intent.value["data"]?.sequence ?? [] { templates.blocks.append(try block(key(intent), data)) }
            }
        } catch {
            throw LoadError(description: error.description)
        }
        return templates
    }

    private static func key(_ pair: YAMLNode.Pair) -> String { pair.key.scalar?.text ?? "" }

    /// A template scalar, located at its first character (after a quote).
    static func sentence(_ node: YAMLNode) throws(SentenceError) -> IntentTemplates.Sentence {
        let quoted = node.scalar.map { $0.style == .singleQuoted || $0.style == .doubleQuoted } ?? false
        let at = SentenceLocation(file: node.mark.file, line: node.mark.line, column: node.mark.column + (quoted ? 1 : 0))
        guard let text = node.scalar?.text else {
            throw SentenceError(.malformed, at: at, "a template must be text, not \(node.kindDescription)")
        }
        return try IntentTemplates.Sentence(text, at: at)
    }

    private static func object(_ node: YAMLNode?) -> [String: JSON] {
        node?.json.objectValue ?? [:]
    }

    private static func block(_ intent: String, _ node: YAMLNode) throws(SentenceError) -> IntentTemplates.Block {
        var sentences: [IntentTemplates.Sentence] = []
        for s in node["sentences"]?.sequence ?? [] { sentences.append(try sentence(s)) }
        var lists: [String: SlotList] = [:]
        for pair in node["lists"]?.mapping ?? [] { lists[key(pair)] = try list(pair.value) }
        var rules: [String: IntentTemplates.Sentence] = [:]
        for pair in node["expansion_rules"]?.mapping ?? [] { rules[key(pair)] = try sentence(pair.value) }
        return IntentTemplates.Block(intent: intent, sentences: sentences, slots: object(node["slots"]),
                                     requiresContext: object(node["requires_context"]),
                                     excludesContext: object(node["excludes_context"]), lists: lists, rules: rules,
                                     response: node["response"]?.scalar?.text)
    }

    /// A list: `values:` (text, or `in`/`out`/`context`), `range:` or `wildcard: true`.
    static func list(_ node: YAMLNode) throws(SentenceError) -> SlotList {
        let at = SentenceLocation(file: node.mark.file, line: node.mark.line, column: node.mark.column)
        if let values = node["values"]?.sequence {
            var out: [SlotValue] = []
            for value in values {
                if let text = value.scalar?.text {
                    if text.contains(where: { "()[]{}<>|".contains($0) }) {
                        out.append(SlotValue(input: try sentence(value).expression, output: nil))
                    } else {
                        out.append(SlotValue(text: text, output: value.json.stringValue.map(JSON.string) ?? .string(text)))
                    }
                } else if let input = value["in"] {
                    out.append(SlotValue(input: try sentence(input).expression, output: value["out"]?.json,
                                         context: object(value["context"])))
                } else {
                    throw SentenceError(.malformed, at: at, "a list value is text or has \"in\"")
                }
            }
            return .values(out)
        }
        if let range = node["range"] { return .range(try SlotRange(json: range.json, at: at)) }
        if node["wildcard"]?.json == .bool(true) { return .wildcard }
        throw SentenceError(.malformed, at: at, "a list has \"values\", \"range\" or \"wildcard: true\"")
    }
}
