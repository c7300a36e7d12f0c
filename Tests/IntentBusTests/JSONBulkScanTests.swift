import Foundation
import Testing
import IntentBusCore

/// The parser and the writer find and copy a string's unescaped runs eight bytes at a time,
/// and the parser tells whether its input is exactly the canonical text, for the SDK's
/// echo of unchanged parameters (docs/performance.md, "The SDK's plain handler on large
/// bodies"). Each case here sits at every offset of a word, so that a special byte is met
/// in the word loop, in the tail loop and across the boundary between them.
@Suite("JSON bulk scan and canonical input")
struct JSONBulkScanTests {
    /// The writer's escaping, written the slow and obvious way: the oracle.
    private func escapedByHand(_ s: String) -> String {
        var out: [UInt8] = [0x22]
        for byte in s.utf8 {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case ..<0x20: out += Array(String(format: "\\u%04x", Int(byte)).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    private func parse(_ bytes: [UInt8]) throws -> (JSON, Bool) {
        var canonical = false
        let value = try bytes.withUnsafeBytes { raw throws(JSONParseError) in try JSON.parse(bytes: raw, isCanonical: &canonical) }
        return (value, canonical)
    }

    @Test("a special character at every offset of a run is found, escaped and read back")
    func specialAtEveryOffset() throws {
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "😀", "/"] {
            for length in 0..<34 {
                for at in 0...length {
                    let s = String(repeating: "a", count: at) + special + String(repeating: "b", count: length - at)
                    let text = JSON.string(s).canonicalString
                    #expect(text == escapedByHand(s), "\(special.debugDescription) at \(at) of \(length)")
                    let (back, canonical) = try parse(Array(text.utf8))
                    #expect(back == .string(s))
                    #expect(canonical, "\(text.debugDescription)")
                }
            }
        }
    }

    @Test("invalid UTF-8 and raw control characters are refused wherever they are in a long string")
    func invalidBytesInLongRuns() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x01], [0x1F]] {
            for at in [0, 1, 7, 8, 9, 15, 16, 40] {
                let body = Array("\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: at) + bad
                    + Array(repeating: UInt8(ascii: "y"), count: 20) + Array("\"".utf8)
                #expect(throws: JSONParseError.self, "\(bad) at \(at)") { _ = try parse(body) }
                // The same after an escape (the general loop's runs).
                let escaped = Array(body[..<1]) + Array(#"\n"#.utf8) + Array(body[1...])
                #expect(throws: JSONParseError.self, "\(bad) at \(at) after an escape") { _ = try parse(escaped) }
            }
        }
        // Unterminated, with and without an escape, at word boundaries.
        for n in [0, 7, 8, 9, 16] {
            #expect(throws: JSONParseError.self) { _ = try parse(Array(("\"" + String(repeating: "z", count: n)).utf8)) }
            #expect(throws: JSONParseError.self) { _ = try parse(Array(("\"\\t" + String(repeating: "z", count: n)).utf8)) }
        }
    }

    @Test("escapes and surrogate pairs between long runs")
    func escapesBetweenRuns() throws {
        let run = String(repeating: "r", count: 19)
        let text = "\"\(run)\\ud83d\\ude00\(run)\\u00e9\(run)\\/\(run)\\\"\""
        let (value, canonical) = try parse(Array(text.utf8))
        #expect(value == .string("\(run)😀\(run)é\(run)/\(run)\""))
        #expect(!canonical)  // the writer writes 😀, é and / as they are
        #expect(value.canonicalString == "\"\(run)😀\(run)é\(run)/\(run)\\\"\"")
    }

    @Test("isCanonical is exactly: the writer writes these same bytes")
    func canonicalIffWriterAgrees() throws {
        let texts = [
            #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#, #"{}"#, #"[]"#, #"[1,-2,3.5,0.0,-0.0,1e+300]"#,
            #"{"p":"x"}"#, #"{"":1,"Z":2,"a":3,"é":4,"😀":5}"#, #""\u0001\u001f\b\f\n\r\t\"\\""#,
            // Not canonical: whitespace, key order, a repeated key, escapes and numbers the writer spells otherwise.
            #"{ "a":1}"#, "{\"a\":1}\n", #"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#, #""\/""#, #""\u0041""#,
            #""\u001F""#, #""\u000a""#, #""\ud83d\ude00""#, "-0", "1e2", "100.0", "1.50", "1E2", "0.1", "1e-7",
            "1.0e-7", "12345678901234567.0", "1.2345678901234568e+16", "[1 ,2]", "[ ]", "3",
        ]
        for text in texts {
            let (value, canonical) = try parse(Array(text.utf8))
            #expect(canonical == (value.canonicalString == text), "\(text): isCanonical \(canonical), writes \(value.canonicalString)")
        }
        // Empty means {}, whose text is not empty.
        #expect(try parse([]) == (.object([:]), false))
    }

    @Test("the nesting limit and numbers still hold")
    func limitsHold() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try parse(Array(ok.utf8)).1)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONParseError.self) { _ = try parse(Array(deep.utf8)) }
        #expect(try parse(Array("-9223372036854775808".utf8)) == (.int(.min), true))
        #expect(throws: JSONParseError.self) { _ = try parse(Array("-9223372036854775809".utf8)) }
    }

    @Test("a repeated key: one entry with the last value; keys equal only under normalization refused")
    func repeatedKeys() throws {
        #expect(try JSON.parse(#"{"a":1,"b":2,"a":{"c":3}}"#) == ["a": ["c": 3], "b": 2])
        #expect(try JSON.parse(#"{"a":1,"a":null}"#) == ["a": .null])
        #expect(try JSON.parse(#"{"a":null,"a":1,"a":[2]}"#) == ["a": [2]])
        if case .object(let object) = try JSON.parse(#"{"k":1,"k":2,"k":3}"#) { #expect(object.count == 1) }
        // The refusal names the byte where the second key's value starts (22), whatever follows.
        for text in [#"{"\u00e9":1,"e\u0301":2}"#, #"{"\u00e9":1,"e\u0301":2,"z":3}"#] {
            let refused = #expect(throws: JSONParseError.self) { _ = try JSON.parse(text) }
            #expect(refused?.message == "not valid JSON: two keys differ only in Unicode normalization at byte 22", "\(text)")
        }
        #expect(throws: JSONParseError.self) { _ = try JSON.parse("{\"\u{E9}\":1,\"x\":0,\"e\u{301}\":2}") }
    }

    @Test("writesSameBytes: byte-for-byte equality of the canonical text, not ==")
    func sameBytes() throws {
        let big = String(repeating: "x", count: 100_000)
        let value: JSON = ["p": .string(big), "list": [1, 2.5, "é"], "n": .null]
        #expect(value.writesSameBytes(as: value))
        #expect(value.writesSameBytes(as: try JSON.parse(value.canonicalString)))
        let composed = JSON.string("\u{E9}"), decomposed = JSON.string("e\u{301}")
        #expect(composed == decomposed)  // Swift's String equality...
        #expect(!composed.writesSameBytes(as: decomposed))  // ...but not the same bytes
        #expect(!JSON.object(["\u{E9}": 1]).writesSameBytes(as: .object(["e\u{301}": 1])))
        #expect(JSON.double(0) == JSON.double(-0.0))
        #expect(!JSON.double(0).writesSameBytes(as: .double(-0.0)))
        #expect(!JSON.int(1).writesSameBytes(as: .double(1)))
        #expect(!JSON.array([1, 2]).writesSameBytes(as: [1, 3]))
        #expect(!JSON.array([1]).writesSameBytes(as: [1, 1]))
        #expect(!JSON.object(["a": 1]).writesSameBytes(as: ["b": 1]))
        #expect(!JSON.string(big).writesSameBytes(as: .string(big + "y")))
        #expect(JSON.string(big).writesSameBytes(as: .string(String(big))))
    }
}
