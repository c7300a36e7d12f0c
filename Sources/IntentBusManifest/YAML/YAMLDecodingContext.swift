/// Collects diagnostics while YAML nodes are turned into values, so that one pass
/// reports every problem in a file instead of stopping at the first.
///
/// Decoding functions return nil after reporting why; callers go on decoding the rest
/// and call `throwIfErrors()` at the end. The context also tracks the key path being
/// decoded (`plugins[1].timeout`), which prefixes every message.
///
/// A context is used by one thread at a time: it is a plain class without locking,
/// meant to live for the duration of one load.
///
/// ```swift
/// let context = YAMLDecodingContext()
/// let spec = context.mapping(root) { m -> Spec? in
///     let name = m.require("name", as: String.self)
///     let timeout = m.optional("timeout", as: Duration.self, default: .seconds(10))
///     guard let name else { return nil }
///     return Spec(name: name, timeout: timeout)
/// }   // keys that were never read are reported as unknown here
/// try context.throwIfErrors()
/// ```
package final class YAMLDecodingContext {
    /// Everything reported so far, errors and warnings, in the order found.
    package private(set) var diagnostics: [ConfigDiagnostic] = []
    /// The keys and indices leading to the node being decoded.
    package private(set) var path: [PathComponent] = []

    /// One step in `path`.
    package enum PathComponent: Sendable, Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        package var description: String {
            switch self {
            case .key(let key): return key
            case .index(let index): return "[\(index)]"
            }
        }
    }

    package init() {}

    /// The errors among `diagnostics`.
    package var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warnings among `diagnostics`.
    package var warnings: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    /// How many of `diagnostics` are errors, counted as they are reported: decoders ask
    /// before and after each entry, and filtering every time made loading quadratic in
    /// the number of diagnostics (20,000 entries with a missing exec took 13 s).
    package private(set) var errorCount = 0
    package var hasErrors: Bool { errorCount > 0 }

    /// `path` as people write it: `plugins[1].exec`. Empty at the top.
    package var pathDescription: String {
        var text = ""
        for component in path {
            if case .key = component, !text.isEmpty { text += "." }
            text += component.description
        }
        return text
    }

    /// Reports an error at `mark`, prefixed with the current path.
    package func error(_ message: String, at mark: SourceMark) {
        report(ConfigDiagnostic(mark, prefixed(message, at: mark)))
    }

    /// Reports a warning at `mark`, prefixed with the current path.
    package func warning(_ message: String, at mark: SourceMark) {
        report(ConfigDiagnostic(mark, prefixed(message, at: mark), severity: .warning))
    }

    /// Adds a finished diagnostic as it is (no path prefix), e.g. one from a
    /// `ConfigError` thrown by `YAMLParser`.
    package func report(_ diagnostic: ConfigDiagnostic) {
        diagnostics.append(diagnostic)
        if diagnostic.severity == .error { errorCount += 1 }
    }

    /// Reports an "expected …, got …" error for `node`.
    package func typeMismatch(expected: String, got node: YAMLNode) {
        var message = "expected \(expected), got \(node.kindDescription)"
        if expected.hasPrefix("a list"), node.scalar != nil, !node.isNull {
            message += "; write [\(node.scalar?.text ?? "")] for a list of one"
        }
        error(message, at: node.mark)
    }

    /// Runs `body` with `component` appended to the path.
    package func withPath<Result>(_ component: PathComponent, _ body: () throws -> Result) rethrows -> Result {
        path.append(component)
        defer { path.removeLast() }
        return try body()
    }

    /// Decodes `node` as `T`, reporting why when it can't.
    package func decode<T: YAMLDecodable>(_ node: YAMLNode, as type: T.Type = T.self) -> T? {
        T.decode(node, in: self)
    }

    /// Opens `node` as a mapping for `body`, then reports every key `body` did not
    /// read as unknown (with the allowed keys, and the closest one for a near-typo).
    ///
    /// Read every key before returning early: keys read after an early `return nil`
    /// would be reported as unknown. `YAMLMapping.allow(_:)` marks a key as known
    /// without reading it.
    ///
    /// - Returns: nil, after reporting, when `node` is not a mapping; otherwise what
    ///   `body` returns.
    @discardableResult
    package func mapping<Result>(_ node: YAMLNode, _ body: (YAMLMapping) throws -> Result?) rethrows -> Result? {
        guard let mapping = YAMLMapping(node, in: self) else { return nil }
        let result = try body(mapping)
        mapping.reportUnknownKeys()
        return result
    }

    /// The items of `node`, or nil after reporting when it is not a sequence.
    package func sequence(_ node: YAMLNode) -> [YAMLNode]? {
        guard let items = node.sequence else {
            typeMismatch(expected: "a list", got: node)
            return nil
        }
        return items
    }

    /// Decodes each item of a sequence with `body`, with `[index]` on the path.
    /// Items for which `body` returns nil are left out; the result is nil only when
    /// `node` is not a sequence.
    @discardableResult
    package func eachItem<Item>(of node: YAMLNode, _ body: (YAMLNode) throws -> Item?) rethrows -> [Item]? {
        guard let items = sequence(node) else { return nil }
        var results: [Item] = []
        for (index, item) in items.enumerated() {
            if let result = try withPath(.index(index), { try body(item) }) { results.append(result) }
        }
        return results
    }

    /// Throws a `ConfigError` holding every error so far (not the warnings), if any.
    package func throwIfErrors() throws(ConfigError) {
        let errors = errors
        if !errors.isEmpty { throw ConfigError(errors) }
    }

    /// A mark with a key path (an `.intentdefinition`) names the place itself.
    private func prefixed(_ message: String, at mark: SourceMark) -> String {
        path.isEmpty || mark.keyPath != nil ? message : "\(pathDescription): \(message)"
    }
}
