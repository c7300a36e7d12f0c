import Foundation
import Testing
import IntentBusTestSupport
@testable import PluginHost
import IntentBusCore
import IntentBusManifest
import IntentBusMetadata

/// The lane check's scan of a body in place (NewStyle/NewStyleBodyScan.swift) against its
/// parse (`NewStyleLaneCheck.passesParsed`): wherever the scan answers, it answers what the
/// parse does, over hand-picked bodies and many made of their pieces, truncated and with
/// bytes changed.
@Suite("New-style lane check: the body scan")
struct NewStyleBodyScanTests {
    static let parameters = [
        NewStyleParameter(name: "text", title: "Text", type: .string),
        NewStyleParameter(name: "count", title: "Count", type: .integer, optional: true, min: 1, max: 10),
        NewStyleParameter(name: "flag", title: "Flag", type: .boolean, optional: true),
        NewStyleParameter(name: "who", title: "Who", type: .entity, entity: "Person", optional: true),
        NewStyleParameter(name: "when", title: "When", type: .date, optional: true),
        NewStyleParameter(name: "tags", title: "Tags", type: .string, optional: true, multiple: true),
    ]

    let check: NewStyleLaneCheck
    let scan: NewStyleBodyScan

    init() throws {
        let manifest = try ManifestLoader.load(text: """
            host:
              state_dir: /nonexistent/scan/state
            plugins:
              - id: notes
                exec: /bin/true
                IntentsSupported: [NoteIntent]
            """, path: "/nonexistent/scan/plugins.yaml")
        let intent = NewStyleIntent(identifier: "NoteIntent", title: "Note", parameters: Self.parameters)
        check = NewStyleLaneCheck(intent: intent, catalog: NewStyleCatalog(),
                                  access: AuthenticationPolicy.Access(host: manifest.host, clientKeysRequired: false))
        scan = try #require(NewStyleBodyScan(Self.parameters))
    }

    private func verdicts(_ body: [UInt8]) -> (scan: Bool?, parse: Bool) {
        body.withUnsafeBytes { (scan.passes($0), check.passesParsed(body: $0)) }
    }

    /// Pieces of bodies: keys, values (valid, invalid, not JSON), whitespace.
    static let keys: [[UInt8]] = ["\"text\"", "\"count\"", "\"flag\"", "\"who\"", "\"when\"", "\"tags\"", "\"zz\"",
                                  "\"t\\u0065xt\"", "\"t\u{e9}xt\"", "\"text", "text"].map { Array($0.utf8) }
    static let values: [[UInt8]] = {
        var v = ["\"buy tea\"", "\"\"", "\"caf\u{e9} \u{1F375}\"", "\"a\\\"b\"", "\"a\\u0041\"", "3", "-0", "0", "01", "11", "-3",
                 "1.5", "1e2", "3E1", "123456789012345678", "1234567890123456789", "12345678901234567890123", "true", "false",
                 "tru", "null", "nul", "[1]", "[\"a\"]", "{\"id\":\"x\"}", "{}", "\"2026-12-04\"", "-", "\"x"].map { Array($0.utf8) }
        // Bytes that are not UTF-8 (a lone continuation, an overlong '/', a surrogate, past
        // U+10FFFF, a cut sequence) and a raw control character.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x09], [0x7F]] {
            v.append([0x22, 0x61] + bad + [0x22])
        }
        return v
    }()
    /// Values that fit the first four parameters (text, count, flag, who).
    static let fitting: [[[UInt8]]] = [["\"buy tea\"", "\"\"", "\"caf\u{e9}\""], ["1", "10", "3"], ["true", "false"], ["\"kim\"", "\"\""]]
        .map { $0.map { Array($0.utf8) } }
    static let inserted = Array("{}[]\",:\\ 0n".utf8)
    /// JSON whitespace, mostly none; and, one time in 48, bytes that are not (a vertical tab, U+00A0).
    static let spaces: [[UInt8]] = (Array(repeating: "", count: 10) + [" ", "\n\t", "\r "] + Array(repeating: "", count: 10)
                                    + [" ", "\n\t", "\r "] + Array(repeating: "", count: 10) + [" ", "\n\t", "\r "]
                                    + Array(repeating: "", count: 10) + ["  ", "\u{0B}", "\u{A0}"]).map { Array($0.utf8) }

    @Test("bodies clients send most are answered by the scan, as the parse answers them")
    func common() {
        let cases: [(String, Bool)] = [
            (#"{"text":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#, true),
            (#" { "text" : "buy tea", "count" : 3 , "flag":true, "who":"kim" } "#, true),
            (#"{"text":"caf\#u{e9}","count":10,"flag":false}"#, true),
            (#"{"count":3}"#, false),               // text is required
            (#"{"text":"a","count":11}"#, false),    // out of range
            (#"{"text":"a","count":0}"#, false),
            (#"{"text":"a","zz":1}"#, false),        // unknown
            (#"{"text":null}"#, false),
            (#"{"text":"a","who":""}"#, false),
            (#"{}"#, false),
        ]
        for (text, expected) in cases {
            let (s, p) = verdicts(Array(text.utf8))
            #expect(s == expected, "\(text)")
            #expect(p == expected, "\(text)")
        }
    }

    @Test("what the scan leaves to the parse: escapes, nesting, decimals, other types, repeats")
    func leftToParse() {
        for text in [#"{"text":"a\"b"}"#, #"{"t\u0065xt":"a"}"#, #"{"text":"a","tags":["x"]}"#, #"{"text":"a","count":1.0}"#,
                     #"{"text":"a","when":"2026-12-04"}"#, #"{"text":"a","text":"b"}"#, #"{"text":"a","count":"3"}"#,
                     #"["text"]"#, #"{"text":"a"} x"#, #"{"text":"a","count":01}"#,
                     // A refused value that a later repeat of its key (spelled with an escape) replaces: that one passes.
                     #"{"text":null,"t\u0065xt":"a"}"#, #"{"text":"a","count":11,"c\u006funt":3}"#] {
            #expect(verdicts(Array(text.utf8)).scan == nil, "\(text)")
        }
    }

    @Test("wherever the scan answers, over bodies made of pieces, cut and changed, it answers as the parse")
    func agreesWithParse() {
        var numbers = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ n: Int) -> Int { numbers.next(n) }
        var answered = 0, passed = 0, total = 0
        for round in 0..<20_000 {
            var body: [UInt8] = Self.spaces[next(Self.spaces.count)] + Array("{".utf8)
            for k in 0..<next(4) {
                if k > 0 { body += Array(",".utf8) }
                // Mostly declared keys with values that fit, so that many bodies pass.
                let fitting = next(3) > 0
                let key = k == 0 && fitting ? 0 : fitting ? next(4) : next(Self.keys.count)
                let value = fitting && key < Self.fitting.count ? Self.fitting[key][next(Self.fitting[key].count)]
                                                              : Self.values[next(Self.values.count)]
                body += Self.spaces[next(Self.spaces.count)] + Self.keys[key] + Self.spaces[next(Self.spaces.count)] + Array(":".utf8)
                body += Self.spaces[next(Self.spaces.count)] + value
            }
            body += Self.spaces[next(Self.spaces.count)] + Array("}".utf8) + Self.spaces[next(Self.spaces.count)]
            switch round % 8 {
            case 1 where body.count > 1: body.removeLast(next(body.count))
            case 2: body[next(body.count)] = UInt8(next(256))
            case 3: body.insert(Self.inserted[next(Self.inserted.count)], at: next(body.count + 1))
            default: break
            }
            let (s, p) = verdicts(body)
            total += 1
            if let s {
                answered += 1
                if s { passed += 1 }
                #expect(s == p, "\(String(decoding: body, as: UTF8.self)) \(body)")
            }
        }
        // The scan does answer (a scan that answered nothing would agree vacuously).
        #expect(answered > total / 4 && passed > 2_000, "\(answered) of \(total) answered, \(passed) passed")
    }
}
