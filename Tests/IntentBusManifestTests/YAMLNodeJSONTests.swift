import Testing
import IntentBusCore
@testable import IntentBusManifest

/// `YAMLNode.json`: the one YAML-to-JSON conversion, used by the legacy definitions
/// (defaults, the Xcode bridge) and the sentence files (slot values, ranges, wildcards).
@Suite("YAML node as JSON")
struct YAMLNodeJSONTests {
    @Test("YAML's core schema decides: plain numbers and booleans are typed, quoted ones stay strings, ~ and null are null")
    func scalars() throws {
        let root = try YAMLParser.parseDocument("""
            int: 10
            quoted: "10"
            decimal: 2.5
            yes_word: true
            single: 'true'
            nothing: ~
            null_word: null
            tagged: !!str null
            text: Garden shed
            """, file: "t.yaml")
        #expect(root.json == [
            "int": 10, "quoted": "10", "decimal": 2.5, "yes_word": true, "single": "true",
            "nothing": .null, "null_word": .null, "tagged": "null", "text": "Garden shed",
        ])
    }

    @Test("lists and mappings nest; a key that is not a scalar is dropped, not turned into text")
    func collections() throws {
        let root = try YAMLParser.parseDocument("""
            list: [1, "2", [x]]
            map: {a: {b: false}}
            ? [not, scalar]
            : dropped
            """, file: "t.yaml")
        #expect(root.json == ["list": [1, "2", ["x"]], "map": ["a": ["b": false]]])
        #expect(try #require(root.mapping).count == 3, "the parser kept the odd key; the conversion drops it")
    }
}
