internal import CYAML
import Glibc

/// Reads one top-level key's value from a YAML file without building the rest.
///
/// Client commands need the manifest's `host:` section and nothing else; building the
/// whole tree of a large manifest took 591 MB and 5.4 s for 50 MB of `plugins:`
/// (issue 24). This reads the file through libyaml's event parser from a `FILE`, so
/// neither the text nor a tree of it is ever in memory: it builds nodes only for the
/// wanted value, skips the events of every other value, and stops at the end of the
/// wanted value (docs/reliability.md, "Limits").
///
/// Whatever it can't decide exactly as `YAMLParser.parseDocument` would (a syntax or
/// reader error, an alias in or to the wanted key that may point outside it, a `<<`
/// merge key at the top level, a root that is not a mapping, a nesting too deep) gives
/// `.needsFullParse`: the caller parses the whole file, which reports it precisely.
package enum YAMLTopLevelReader {
    /// What a streaming read found.
    package enum Outcome {
        /// The first document's root is a mapping; the value of its first pair whose key
        /// is `key`, or nil when there is none. `events` is how many libyaml events were
        /// parsed to learn it, for tests that check the read stopped early.
        case found(YAMLNode?, events: Int)
        /// Streaming can't answer as a full parse would; parse the whole file.
        case needsFullParse
    }

    /// The value of `key` in the top-level mapping of the file at `path`.
    package static func value(forKey key: String, inFile path: String) -> Outcome {
        guard let file = fopen(path, "rb") else { return .needsFullParse }
        defer { fclose(file) }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return .needsFullParse }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_file(&parser, file)
        // The full parse reads the file as UTF-8 and nothing else; so must this.
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var scan = TopLevelScan(key: key, file: path)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return .needsFullParse }
            let step = scan.consume(event)
            yaml_event_delete(&event)
            if let outcome = step { return outcome }
        }
    }
}

/// The state of a streaming read: where in the root mapping the parser is, and the
/// builder of the wanted value while inside it.
private struct TopLevelScan {
    let key: String
    let file: String
    private var events = 0
    private var inRoot = false
    /// In the root mapping, the next node is a key (else a value).
    private var expectingKey = false
    /// The key just read is the wanted one: the next value is built.
    private var matched = false
    /// Levels of the collection being skipped; 0 when not skipping.
    private var skipDepth = 0
    /// The builder of the wanted value, and the levels open in it.
    private var builder: TreeBuilder?
    private var buildDepth = 0

    init(key: String, file: String) {
        self.key = key
        self.file = file
    }

    /// Takes one event; the outcome once it is known, nil to read on.
    mutating func consume(_ event: yaml_event_t) -> YAMLTopLevelReader.Outcome? {
        events += 1
        if builder != nil { return build(event) }
        if skipDepth > 0 {
            skipDepth += depthChange(event)
            if skipDepth == 0 { nodeDone() }
            return nil
        }
        switch event.type {
        case YAML_STREAM_START_EVENT, YAML_DOCUMENT_START_EVENT:
            return nil
        case YAML_MAPPING_START_EVENT where !inRoot:
            inRoot = true
            expectingKey = true
            return nil
        case _ where !inRoot:
            // An empty stream or a root that is not a mapping: the full parse says what.
            return .needsFullParse
        case YAML_MAPPING_END_EVENT:
            return .found(nil, events: events)
        case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
            if !expectingKey && matched {
                builder = TreeBuilder(file: file)
                return build(event)
            }
            skipDepth = 1
            return nil
        case YAML_SCALAR_EVENT:
            if expectingKey {
                let data = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
                // A merge key can bring in the wanted key from anywhere.
                if text == "<<" { return .needsFullParse }
                matched = text == key
                expectingKey = false
                return nil
            }
            if matched {
                builder = TreeBuilder(file: file)
                return build(event)
            }
            nodeDone()
            return nil
        case YAML_ALIAS_EVENT:
            // An alias key may stand for the wanted key; an alias value for it refers
            // outside what this reads.
            if expectingKey || matched { return .needsFullParse }
            nodeDone()
            return nil
        default:
            return .needsFullParse
        }
    }

    /// Feeds the wanted value's builder; the outcome when the value is complete.
    private mutating func build(_ event: yaml_event_t) -> YAMLTopLevelReader.Outcome? {
        guard var open = builder else { return .needsFullParse }
        open.consume(event)
        buildDepth += depthChange(event)
        builder = open
        // An alias to an anchor outside the value shows as an unknown alias here.
        if open.isTooDeep || !open.diagnostics.isEmpty { return .needsFullParse }
        guard buildDepth == 0 else { return nil }
        guard let node = open.documents.first else { return .needsFullParse }
        return .found(node, events: events)
    }

    /// A key or value of the root mapping ended: the other comes next.
    private mutating func nodeDone() {
        if expectingKey { matched = false }
        expectingKey.toggle()
    }

    private func depthChange(_ event: yaml_event_t) -> Int {
        switch event.type {
        case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT: return 1
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: return -1
        default: return 0
        }
    }
}
