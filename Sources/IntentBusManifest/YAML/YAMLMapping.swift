/// A YAML mapping opened for decoding: typed look-ups by key, with every key that is
/// read remembered so that the rest can be reported as unknown.
///
/// Get one from `YAMLDecodingContext.mapping(_:_:)`, which reports the unknown keys
/// when its closure returns. Creating one reports duplicate keys and keys that are not
/// scalars. Like its context, a mapping is used by one thread at a time.
package final class YAMLMapping {
    /// The mapping node itself.
    package let node: YAMLNode
    /// The context that receives this mapping's diagnostics.
    package let context: YAMLDecodingContext
    /// The pairs whose key is a scalar, first occurrence of each key only.
    package let pairs: [YAMLNode.Pair]
    /// The keys read (or allowed) so far, in the order first read. This is the list of
    /// allowed keys shown for an unknown one, so reading keys in schema order gives a
    /// readable message.
    package private(set) var knownKeys: [String] = []

    private let index: [String: Int]

    /// Opens `node` as a mapping, or reports a type mismatch and returns nil.
    package init?(_ node: YAMLNode, in context: YAMLDecodingContext) {
        guard let allPairs = node.mapping else {
            context.typeMismatch(expected: "a mapping", got: node)
            return nil
        }
        self.node = node
        self.context = context
        var pairs: [YAMLNode.Pair] = []
        var index: [String: Int] = [:]
        for pair in allPairs {
            guard let key = pair.key.scalar?.text else {
                context.error("mapping keys must be plain text, got \(pair.key.kindDescription)", at: pair.key.mark)
                continue
            }
            if let first = index[key] {
                let firstMark = pairs[first].key.mark
                context.error("duplicate key '\(key)' (first at line \(firstMark.line))", at: pair.key.mark)
                continue
            }
            index[key] = pairs.count
            pairs.append(pair)
        }
        self.pairs = pairs
        self.index = index
    }

    /// Where the mapping starts; missing keys are reported here.
    package var mark: SourceMark { node.mark }

    /// The keys present, in document order.
    package var keys: [String] { pairs.compactMap { $0.key.scalar?.text } }

    /// Whether `key` is present (even with a null value). Counts as reading it.
    package func contains(_ key: String) -> Bool {
        noteKnown(key)
        return index[key] != nil
    }

    /// The value node for `key`, or nil when absent. Counts as reading it.
    package func node(for key: String) -> YAMLNode? {
        noteKnown(key)
        return index[key].map { pairs[$0].value }
    }

    /// The mark of `key` itself (not its value), when present.
    package func keyMark(for key: String) -> SourceMark? {
        index[key].map { pairs[$0].key.mark }
    }

    /// Declares keys as allowed without reading them, e.g. keys a later stage handles.
    package func allow(_ keys: String...) {
        keys.forEach(noteKnown)
    }

    /// Decodes the value of a key that must be present and not null.
    ///
    /// - Returns: nil, after reporting at this mapping's mark ("missing required key")
    ///   or at the value, when the key is absent, null or of the wrong type.
    package func require<T: YAMLDecodable>(_ key: String, as type: T.Type = T.self) -> T? {
        guard let value = node(for: key) else {
            context.error("missing required key '\(key)'", at: mark)
            return nil
        }
        return context.withPath(.key(key)) {
            if value.isNull {
                context.error("needs a value (\(T.yamlExpectation))", at: keyMark(for: key) ?? value.mark)
                return nil
            }
            return context.decode(value, as: T.self)
        }
    }

    /// Decodes the value of an optional key. Absent and null both give nil, silently;
    /// a value of the wrong type gives nil after reporting.
    package func optional<T: YAMLDecodable>(_ key: String, as type: T.Type = T.self) -> T? {
        guard let value = node(for: key), !value.isNull else { return nil }
        return context.withPath(.key(key)) { context.decode(value, as: T.self) }
    }

    /// Like `optional(_:as:)`, with `defaultValue` for absent, null and invalid values.
    package func optional<T: YAMLDecodable>(_ key: String, as type: T.Type = T.self, default defaultValue: T) -> T {
        optional(key, as: type) ?? defaultValue
    }

    /// Reports every key not read or allowed, naming the allowed keys and suggesting
    /// the closest one when the key looks like a typo. `YAMLDecodingContext.mapping`
    /// calls this for you.
    package func reportUnknownKeys() {
        let known = Set(knownKeys)
        for pair in pairs {
            guard let key = pair.key.scalar?.text, !known.contains(key) else { continue }
            var message = "unknown key '\(key)'"
            if let suggestion = Self.closest(to: key, among: knownKeys) {
                message += "; did you mean '\(suggestion)'?"
            }
            if !knownKeys.isEmpty {
                message += " (allowed: \(knownKeys.joined(separator: ", ")))"
            }
            context.error(message, at: pair.key.mark)
        }
    }

    private func noteKnown(_ key: String) {
        if !knownKeys.contains(key) { knownKeys.append(key) }
    }

    /// The candidate nearest to `key` when it is close enough to be a typo: equal
    /// ignoring case, `_` and `-`, or within a small edit distance of it.
    package static func closest(to key: String, among candidates: [String]) -> String? {
        func folded(_ text: String) -> [Character] {
            Array(text.lowercased().filter { $0 != "_" && $0 != "-" })
        }
        let target = folded(key)
        let tolerance = max(1, min(3, target.count / 3))
        // The distance is at least the difference in length: skip candidates that cannot be
        // near, so that a long key costs no more than the candidates' own lengths (the
        // definitions fuzzer found a 200-character `locale:` taking seconds).
        let scored = candidates.lazy.map { ($0, folded($0)) }
            .filter { abs($0.1.count - target.count) <= tolerance }
            .map { ($0.0, editDistance(target, $0.1)) }
        guard let (best, distance) = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return distance <= tolerance ? best : nil
    }

    /// Levenshtein distance, with a transposition counting as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            let beforePrevious = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}
