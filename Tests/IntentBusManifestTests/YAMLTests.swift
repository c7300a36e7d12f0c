import Foundation
import Testing
@testable import IntentBusManifest

@Suite("YAML parser")
struct YAMLParserTests {
    @Test func scalarsKeepTheirStyleAndMarks() throws {
        let root = try YAMLParser.parseDocument("""
            plain: 10
            quoted: "10"
            single: 'x'
            list: [a, b]
            """, file: "t.yaml")
        let pairs = try #require(root.mapping)
        #expect(pairs.map { $0.key.scalar?.text } == ["plain", "quoted", "single", "list"])
        #expect(pairs[0].value.scalar == YAMLScalar("10", style: .plain))
        #expect(pairs[0].value.isUntypedPlainScalar)
        #expect(pairs[1].value.scalar == YAMLScalar("10", style: .doubleQuoted))
        #expect(!pairs[1].value.isUntypedPlainScalar)
        #expect(pairs[2].value.scalar?.style == .singleQuoted)
        #expect(pairs[1].key.mark == SourceMark(file: "t.yaml", line: 2, column: 1))
        #expect(pairs[1].value.mark == SourceMark(file: "t.yaml", line: 2, column: 9))
        let list = try #require(pairs[3].value.sequence)
        #expect(list.map(\.mark.column) == [8, 11])
    }

    @Test func nullsAndTags() throws {
        let root = try YAMLParser.parseDocument("a:\nb: ~\nc: null\nd: !!str null\ne: ''\n", file: "t.yaml")
        let values = try #require(root.mapping).map(\.value)
        #expect(values.map(\.isNull) == [true, true, true, false, false])
        #expect(values[3].kindDescription == "the string \"null\"")
    }

    @Test func aliasesAndMergeKeysResolve() throws {
        let root = try YAMLParser.parseDocument("""
            defaults: &defaults
              timeout: 5s
              priority: 1
            names: &names [a, b]
            plugin:
              <<: *defaults
              priority: 2
              intents: *names
            """, file: "t.yaml")
        let plugin = try #require(root.mapping?[2].value.mapping)
        #expect(plugin.map { $0.key.scalar?.text } == ["priority", "intents", "timeout"])
        #expect(plugin[0].value.scalar?.text == "2")
        #expect(plugin[1].value.sequence?.count == 2)
        // Merged pairs keep the marks of where they were written.
        #expect(plugin[2].key.mark.line == 2)
    }

    @Test func unknownAliasIsReported() {
        #expect {
            _ = try YAMLParser.parseDocument("a: 1\nb: *missing\n", file: "t.yaml")
        } throws: { error in
            (error as? ConfigError)?.description
                == "t.yaml:2:4: error: unknown alias '*missing': no anchor '&missing' before it"
        }
    }

    @Test func aliasBombIsStopped() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        #expect {
            _ = try YAMLParser.parseDocument(text, file: "t.yaml")
        } throws: { error in
            (error as? ConfigError)?.diagnostics.first?.message.hasPrefix("aliases expand to more than") == true
        }
    }

    @Test func syntaxErrorHasLibyamlsPositionAndProblem() {
        #expect {
            _ = try YAMLParser.parseDocument("a: 1\nb: [1, 2\nc: 3\n", file: "t.yaml")
        } throws: { error in
            let diagnostic = (error as? ConfigError)?.diagnostics.first
            return diagnostic?.mark == SourceMark(file: "t.yaml", line: 3, column: 2)
                && diagnostic?.message
                    == "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 4)"
        }
    }

    @Test func emptyFileAndSecondDocumentAreErrors() {
        #expect {
            _ = try YAMLParser.parseDocument("# only a comment\n", file: "t.yaml")
        } throws: { error in
            (error as? ConfigError)?.description == "t.yaml:1:1: error: the file is empty; expected a YAML document"
        }
        #expect {
            _ = try YAMLParser.parseDocument("a: 1\n---\nb: 2\n", file: "t.yaml")
        } throws: { error in
            (error as? ConfigError)?.description
                == "t.yaml:3:1: error: expected a single YAML document, found a second one"
        }
    }

    @Test func invalidUTF8IsAReaderError() {
        let text = String(decoding: [0x61, 0x3A, 0x20, 0x0A, 0x62, 0x3A, 0x20, 0x07], as: UTF8.self)
        #expect {
            _ = try YAMLParser.parseDocument(text, file: "t.yaml")
        } throws: { error in
            let diagnostic = (error as? ConfigError)?.diagnostics.first
            return diagnostic?.mark == SourceMark(file: "t.yaml", line: 2, column: 4)
                && diagnostic?.message.hasPrefix("invalid text: ") == true
        }
    }
}

@Suite("YAML decoding")
struct YAMLDecodingTests {
    private func node(_ text: String) throws -> YAMLNode {
        try YAMLParser.parseDocument(text, file: "t.yaml")
    }

    @Test func typedLookupsCollectEveryProblem() throws {
        let context = YAMLDecodingContext()
        let root = try node("""
            name: demo
            count: "3"
            enabled: yes
            tags: solo
            colour: red
            """)
        let result = context.mapping(root) { m -> String? in
            let name = m.require("name", as: String.self)
            _ = m.optional("count", as: Int.self)
            _ = m.optional("enabled", as: Bool.self)
            _ = m.optional("tags", as: [String].self)
            _ = m.optional("color", as: String.self)
            _ = m.require("missing", as: Int.self)
            return name
        }
        #expect(result == "demo")
        #expect(context.diagnostics.map(\.description) == [
            "t.yaml:2:8: error: count: expected an integer, got the string \"3\"",
            "t.yaml:3:10: error: enabled: expected true or false, got 'yes' (YAML 1.1 spelling)",
            "t.yaml:4:7: error: tags: expected a list, got the string \"solo\"; write [solo] for a list of one",
            "t.yaml:1:1: error: missing required key 'missing'",
            "t.yaml:5:1: error: unknown key 'colour'; did you mean 'color'? (allowed: name, count, enabled, tags, color, missing)",
        ])
        #expect(throws: ConfigError.self) { try context.throwIfErrors() }
    }

    @Test func pathsPrefixNestedMessages() throws {
        let context = YAMLDecodingContext()
        let root = try node("items:\n  - {size: 1}\n  - {size: big}\n")
        let sizes = context.mapping(root) { m -> [Int]? in
            guard let items = m.node(for: "items") else { return nil }
            return context.withPath(.key("items")) {
                context.eachItem(of: items) { item in context.mapping(item) { $0.require("size", as: Int.self) } }
            }
        }
        #expect(sizes == [1])
        #expect(context.diagnostics.map(\.description) == [
            "t.yaml:3:12: error: items[1].size: expected an integer, got the string \"big\"",
        ])
    }

    @Test func duplicateKeysAreErrors() throws {
        let context = YAMLDecodingContext()
        _ = context.mapping(try node("a: 1\nb: 2\na: 3\n")) { m in m.optional("a", as: Int.self).map { _ in m.allow("b") } }
        #expect(context.diagnostics.map(\.description) == ["t.yaml:3:1: error: duplicate key 'a' (first at line 1)"])
    }

    @Test(arguments: [
        ("10", Duration.seconds(10)), ("1.5", .milliseconds(1500)), ("250ms", .milliseconds(250)),
        ("\"10s\"", .seconds(10)), ("2m", .seconds(120)), ("1h", .seconds(3600)), ("0.1s", .milliseconds(100)),
        ("3 s", .seconds(3)),
    ])
    func durations(text: String, expected: Duration) throws {
        let context = YAMLDecodingContext()
        #expect(context.decode(try node(text), as: Duration.self) == expected)
        #expect(context.diagnostics.isEmpty)
    }

    @Test(arguments: ["-1s", "10 sec", "ms", "1.2.3s", "[1]"])
    func invalidDurations(text: String) throws {
        let context = YAMLDecodingContext()
        #expect(context.decode(try node(text), as: Duration.self) == nil)
        #expect(context.hasErrors)
    }

    @Test func scalarsReadAsIntended() throws {
        let context = YAMLDecodingContext()
        #expect(context.decode(try node("0x1F"), as: Int.self) == 31)
        #expect(context.decode(try node("-7"), as: Int.self) == -7)
        #expect(context.decode(try node("2.5"), as: Double.self) == 2.5)
        #expect(context.decode(try node("False"), as: Bool.self) == false)
        #expect(context.decode(try node("42"), as: String.self) == "42")
        #expect(context.decode(try node("{a: 1, b: x}"), as: [String: String].self) == ["a": "1", "b": "x"])
        #expect(context.decode(try node("[a, b]"), as: [Marked<String>].self)?.map(\.mark.column) == [2, 5])
        #expect(context.diagnostics.isEmpty)
        #expect(context.decode(try node("~"), as: String.self) == nil)
        #expect(context.diagnostics.map(\.message) == ["expected a string, got null"])
    }

    @Test func closestKeySuggestions() {
        let keys = ["id", "name", "exec", "IntentsSupported", "timeout", "max_in_flight"]
        #expect(YAMLMapping.closest(to: "intentsSupported", among: keys) == "IntentsSupported")
        #expect(YAMLMapping.closest(to: "intents_supported", among: keys) == "IntentsSupported")
        #expect(YAMLMapping.closest(to: "timeuot", among: keys) == "timeout")
        #expect(YAMLMapping.closest(to: "max-in-flight", among: keys) == "max_in_flight")
        #expect(YAMLMapping.closest(to: "colour", among: keys) == nil)
        #expect(YAMLMapping.closest(to: "x", among: keys) == nil)
    }
}

@Suite("exec command lines")
struct ExecCommandLineTests {
    @Test(arguments: [
        ("bin/plugin", ["bin/plugin"]),
        ("  bin/plugin  --verbose\t-x ", ["bin/plugin", "--verbose", "-x"]),
        ("bin/plugin \"two words\" --name=\"A B\"", ["bin/plugin", "two words", "--name=A B"]),
        ("p \"say \\\"hi\\\"\" \"back\\\\slash\" \"\"", ["p", "say \"hi\"", "back\\slash", ""]),
        ("p \"a\\nb\"", ["p", "a\\nb"]),
    ])
    func splits(text: String, words: [String]) {
        #expect((try? ExecCommandLine.split(text).get()) == words)
    }

    @Test func unterminatedQuoteFails() {
        #expect((try? ExecCommandLine.split("p \"open").get()) == nil)
    }
}
