import Foundation
import Testing
@testable import PluginHost
import IntentBusTestSupport

/// Deeply nested YAML (issue 10): 40,000 levels used to crash the loader while freeing
/// the node tree. Now nesting stops at `YAMLParser.maximumNestingDepth` with an error
/// at the first collection too deep.
@Suite("YAML nesting depth")
struct YAMLDepthTests {
    static let deep = 40_000
    static let limit = YAMLParser.maximumNestingDepth

    static func sequences(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
    static func mappings(_ depth: Int) -> String { String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth) }

    func diagnostics(_ text: String) -> [String] {
        do {
            _ = try YAMLParser.parseDocument(text, file: "deep.yaml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("40,000 nested lists or mappings: one error at the first level too deep, no crash")
    func deepDocuments() {
        // `plugins: ` is 9 columns and its mapping is level 1, so the collection one level past
        // the limit is opener number `limit`.
        #expect(diagnostics("plugins: " + Self.sequences(Self.deep)) == [
            "deep.yaml:1:\(9 + Self.limit): error: lists and mappings are nested more than \(Self.limit) levels deep"])
        #expect(diagnostics("plugins: " + Self.mappings(Self.deep)) == [
            "deep.yaml:1:\(10 + 4 * (Self.limit - 1)): error: lists and mappings are nested more than \(Self.limit) levels deep"])
        // Block style, one level per line (2,000 levels: the indentation grows quadratically).
        let block = (0..<2_000).map { String(repeating: " ", count: $0) + "- " }.joined(separator: "\n") + "x\n"
        #expect(diagnostics(block).first?.hasPrefix("deep.yaml:\(Self.limit + 1):") == true, "\(diagnostics(block).first ?? "")")
    }

    @Test("exactly the limit is accepted")
    func atTheLimit() throws {
        let root = try YAMLParser.parseDocument("plugins: " + Self.sequences(Self.limit - 1), file: "ok.yaml")
        var node = try #require(root["plugins"])
        var depth = 1
        while let inner = node.sequence?.first { node = inner; depth += 1 }
        #expect(depth == Self.limit - 1)
    }

    @Test("aliases cannot build a tree deeper than the limit")
    func aliasesCountTowardsTheDepth() {
        let half = Self.limit / 2 + 5
        let text = "a: &x " + Self.sequences(half) + "\nb: " + String(repeating: "[", count: half) + "*x"
            + String(repeating: "]", count: half) + "\n"
        let lines = diagnostics(text)
        #expect(lines.count == 1)
        #expect(lines.first?.contains("nested more than \(Self.limit) levels deep (through the alias '*x')") == true, "\(lines)")
    }

    @Test("a deep manifest and a deep definitions file fail to load with file:line:column")
    func throughTheLoaders() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", "plugins: " + Self.sequences(Self.deep) + "\n")
        do {
            _ = try ManifestLoader.load(path: manifest)
            Issue.record("a 40,000-deep manifest loaded")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "\(manifest):1:\(9 + Self.limit): error: lists and mappings are nested more than \(Self.limit) levels deep"])
        }
        let result = DefinitionLoader.decode(text: "intents: " + Self.mappings(Self.deep), file: "defs.yaml")
        #expect(result.errors.map(\.description) == [
            "defs.yaml:1:\(10 + 4 * (Self.limit - 1)): error: lists and mappings are nested more than \(Self.limit) levels deep"])
    }

    @Test("the host exits 6 on a deep manifest and on a deep definitions file")
    func hostExitsSix() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let intentbus = Products.path("intentbus")
        let manifest = dir.write("plugins.yaml", "plugins: " + Self.mappings(Self.deep) + "\n")
        let r = runCommand(intentbus, ["host", "--config", manifest], timeout: 30)
        #expect(r.status == 6, "\(r.stderr.prefix(500))")
        #expect(r.stderr.contains("\(manifest):1:\(10 + 4 * (Self.limit - 1)): error: lists and mappings are nested"), "\(r.stderr.prefix(500))")

        let defs = dir.write("defs.yaml", "intents: " + Self.sequences(Self.deep) + "\n")
        let withDefinitions = dir.write("with-defs.yaml", """
        host:
          state_dir: \(dir.path)/state
        plugins:
          - id: a
            exec: /bin/true
            IntentsSupported: [AIntent]
            definitions: [\(defs)]
        """)
        let d = runCommand(intentbus, ["host", "--config", withDefinitions], timeout: 30)
        #expect(d.status == 6, "\(d.stderr.prefix(500))")
        #expect(d.stderr.contains("defs.yaml:1:\(9 + Self.limit): error: lists and mappings are nested"), "\(d.stderr.prefix(500))")
    }
}

/// Typo suggestions cost no more than the candidates' lengths (found by the definitions
/// fuzzer: a 200-character `locale:` took seconds, since every known locale was compared
/// with it by edit distance).
@Suite("Suggestions for long keys")
struct LongKeySuggestionTests {
    @Test("a 20,000-character locale or key is refused at once, with no suggestion")
    func longValuesAreCheap() {
        let long = String(repeating: "\u{FFFD}", count: 20_000)
        let start = Date()
        let result = DefinitionLoader.decode(text: "locale: \(long)\n", file: "defs.yaml")
        let candidates = (0..<2_000).map { "key\($0)" }
        #expect(YAMLMapping.closest(to: long, among: candidates) == nil)
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed < 5, "took \(elapsed) s")
        #expect(result.errors.contains { $0.message.contains("is not a locale identifier") },
                "\(result.errors.map { $0.message.prefix(80) })")
        #expect(result.errors.allSatisfy { !$0.message.contains("did you mean") })
        // Near keys still get their suggestion.
        #expect(YAMLMapping.closest(to: "de_DX", among: ["de_DE", "en_US"]) == "de_DE")
        #expect(YAMLMapping.closest(to: "timout", among: ["timeout", "priority"]) == "timeout")
    }
}
