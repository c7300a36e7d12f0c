import Foundation
import Testing
import IntentBusTestSupport
@testable import PluginHost
import IntentBusCore
import IntentBusDefinitions

/// The legacy lane check's scan of a body in place (Legacy/LegacyBodyScan.swift) against its
/// parse (`LegacyLaneCheck.passedParsed`: `JSON.parse`, canonical, `LegacyFlow.take`, the
/// same bytes): wherever the scan answers, the parse passes the body too, with the same
/// parameters, byte for byte; over hand-picked bodies and many made of pieces, cut and
/// changed. And what `passes` gives travels to the REPLY: `rewrite` and `deliveredFlow` with
/// it make what they made from the body parsed again (the lane's reading before).
@Suite("Legacy lane check: the body scan and what it carries")
struct LegacyBodyScanTests {
    static let definitionText = """
    enums:
      - name: Drink
        cases: [café, tea]
    intents:
      - name: ScanIntent
        parameters:
          - {name: text, type: String}
          - {name: count, type: Integer, minimum: 1, maximum: 10}
          - {name: flag, type: Boolean}
          - {name: drink, type: Drink}
          - {name: tags, type: String, multiple: true}
          - {name: level, type: Integer, default: 3}
          - {name: when, type: Date}
        response:
          parameters:
            - {name: text, type: String}
          codes:
            - {name: done, success: true, formatString: "Done: ${text}"}
    """

    let definition: IntentDefinition
    let check: LegacyLaneCheck
    let scan: LegacyBodyScan

    init() throws {
        let decoded = DefinitionLoader.decode(text: Self.definitionText, file: "scan.yaml")
        definition = try #require(decoded.definitions.first, "\(decoded.diagnostics)")
        check = LegacyLaneCheck(intent: "ScanIntent", definition: definition, pluginId: "p", translated: false)
        scan = try #require(LegacyBodyScan(definition))
    }

    private func readings(_ body: [UInt8]) -> (scan: [String: JSON]?, parse: [String: JSON]?) {
        body.withUnsafeBytes { (scan.parameters($0), check.passedParsed(body: $0)) }
    }

    /// The same parameters: the same keys and values, byte for byte.
    private func same(_ a: [String: JSON], _ b: [String: JSON]) -> Bool {
        a == b && JSON.object(a).writesSameBytes(as: .object(b))
    }

    @Test("bodies clients send most are read by the scan, with the parameters the parse gives them")
    func common() throws {
        let passing = [#"{"count":3,"flag":true,"level":3,"text":"buy tea"}"#, #"{"level":2,"text":"xxxxxxxxxxxxxxxxxxxxxxxxxx"}"#,
                       #"{"level":3}"#, "{\"level\":-7,\"text\":\"caf\u{e9} \u{1F375}\"}", #"{"count":10,"flag":false,"level":0}"#,
                       #"{"level":123456789012345678,"text":""}"#]
        for text in passing {
            let (s, p) = readings(Array(text.utf8))
            let scanned = try #require(s, "\(text)")
            let parsed = try #require(p, "\(text)")
            #expect(same(scanned, parsed), "\(text)")
            // The parameters are the body's own: what the plugin gets is the client's bytes.
            #expect(JSON.object(scanned).canonicalBytes == Array(text.utf8), "\(text)")
        }
        // Not passed by the parse, left to it by the scan.
        for text in [#"{"text":"a"}"#,                      // level's default would be added
                     #"{"count":11,"level":3}"#, #"{"count":0,"level":3}"#,  // out of range
                     #"{"level":3,"text":"a","zz":1}"#,       // unknown
                     #"{"text":"a","level":3}"#,              // keys not in order: not canonical
                     #"{"level":3, "text":"a"}"#,             // whitespace
                     #"{"count":-0,"level":3}"#, #"{"count":01,"level":3}"#, #"{"count":2.0,"level":3}"#,
                     #"{"level":3,"text":null}"#, #"{"level":"3"}"#, #"{"flag":"true","level":3}"#,
                     #"{"level":3,"text":3}"#, #"{"drink":"TEA","level":3}"#, #"{"level":3,"tags":"x"}"#,
                     #"{"level":3,"text":"a"} "#, #"{"level":3,"text":"a""#, #"{"level":3,"level":3}"#, "", "{", "[]"] {
            let (s, p) = readings(Array(text.utf8))
            #expect(s == nil && p == nil, "\(text)")
        }
        // Passed by the parse, left to it by the scan (escapes, lists, enums, dates).
        for text in [#"{"level":3,"text":"a\"b"}"#, #"{"level":3,"tags":["x"]}"#, #"{"drink":"tea","level":3}"#,
                     #"{"level":3,"when":"2026-12-04"}"#, #"{"level":3,"text":"\u0001"}"#] {
            let (s, p) = readings(Array(text.utf8))
            #expect(s == nil && p != nil, "\(text)")
        }
    }

    @Test("no scan for a definition whose names an ASCII key could equal otherwise than byte for byte, or named twice")
    func definitionsLeftToParse() {
        for name in ["caf\u{e9}", "\u{212A}", "count"] {  // U+212A KELVIN SIGN is `==` "K"
            var changed = definition
            changed.parameters[0].name = name
            #expect(LegacyBodyScan(changed) == nil, "\(name)")
        }
        var renamed = definition
        renamed.parameters[0].name = "K"
        #expect(LegacyBodyScan(renamed) != nil)
    }

    /// Pieces of bodies: every declared key and some others, values of every kind.
    static let keys = ["count", "drink", "flag", "level", "tags", "text", "when", "zz", "Text", "t\\u0065xt", "t\u{e9}xt", ""]
        .map { Array("\"\($0)\"".utf8) }
    static let values: [[UInt8]] = {
        var v = ["\"buy tea\"", "\"\"", "\"caf\u{e9} \u{1F375}\"", "\"a\\\"b\"", "\"a\\u0041\"", "\"tea\"", "\"2026-12-04\"", "3", "-0",
                 "0", "01", "10", "11", "-3", "1.5", "2.0", "1e2", "123456789012345678", "1234567890123456789",
                 "12345678901234567890123", "true", "false", "tru", "null", "nul", "[1]", "[\"a\"]", "{\"id\":\"x\"}", "{}", "-",
                 "\"x"].map { Array($0.utf8) }
        // Bytes that are not UTF-8 and raw control characters.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x09], [0x7F], [0x00]] {
            v.append([0x22, 0x61] + bad + [0x22])
        }
        return v
    }()
    /// Values that fit the declared parameters (by their index in `keys`).
    /// (Also drink, tags and when: values the parse passes, the scan leaves to it.)
    static let fitting: [Int: [[UInt8]]] = [0: ["1", "10", "3"], 1: ["\"tea\""], 2: ["true", "false"], 3: ["3", "-12", "0", "7"],
                                            4: ["[\"x\"]", "[]"], 5: ["\"buy tea\"", "\"\"", "\"caf\u{e9}\"", "\"\u{1F375}\""],
                                            6: ["\"2026-12-04\""]]
        .mapValues { $0.map { Array($0.utf8) } }
    static let inserted = Array("{}[]\",:\\ 0n\u{7F}".utf8)

    @Test("wherever the scan answers, over bodies made of pieces, cut and changed, the parse passes it with the same parameters")
    func agreesWithParse() {
        var numbers = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ n: Int) -> Int { numbers.next(n) }
        var answered = 0, parsedOnly = 0, total = 0
        for round in 0..<20_000 {
            // Mostly canonical: declared keys in order with values that fit, so that many pass.
            var members: [(key: Int, value: [UInt8])] = []
            for key in Self.keys.indices {
                // Declared keys often (level mostly, the ones the scan leaves to the parse
                // sometimes), others rarely.
                guard next(40) < (key == 3 ? 35 : [0, 2, 5].contains(key) ? 20 : key < 7 ? 7 : 2) else { continue }
                let fits = next(5) > 0
                let value = fits ? Self.fitting[key].map { $0[next($0.count)] } ?? Self.values[next(Self.values.count)]
                                 : Self.values[next(Self.values.count)]
                members.append((key, value))
            }
            if next(8) == 0, members.count > 1 {  // out of order
                for k in stride(from: members.count - 1, to: 0, by: -1) { members.swapAt(k, next(k + 1)) }
            }
            if next(10) == 0, let first = members.first { members.append(first) }
            var body = Array("{".utf8)
            for (k, member) in members.enumerated() {
                if k > 0 { body += Array(",".utf8) }
                body += Self.keys[member.key] + Array(":".utf8) + member.value
            }
            body += Array("}".utf8)
            switch round % 8 {
            case 1 where body.count > 1: body.removeLast(next(body.count))
            case 2: body[next(body.count)] = UInt8(next(256))
            case 3: body.insert(Self.inserted[next(Self.inserted.count)], at: next(body.count + 1))
            default: break
            }
            let (s, p) = readings(body)
            total += 1
            if let s {
                answered += 1
                #expect(p.map { same(s, $0) } == true, "\(String(decoding: body, as: UTF8.self)) \(body)")
            } else if p != nil {
                parsedOnly += 1
            }
        }
        // The scan does answer, and leaves some passing bodies to the parse (a scan that
        // answered nothing would agree vacuously).
        #expect(answered > 1_500 && parsedOnly > 300, "\(answered) of \(total) read by the scan, \(parsedOnly) passed by the parse only")
    }

    @Test("the reading `passes` gives makes the final REPLY and the promoted flow that the body parsed again made")
    func carriedToTheReply() throws {
        let logger = Logger(label: "scan", minimumLevel: .error) { _ in }
        let requests = [#"{"count":3,"flag":true,"level":3,"text":"buy tea"}"#, #"{"level":3}"#, #"{"drink":"tea","level":3}"#,
                        "{\"level\":3,\"text\":\"caf\u{e9}\"}", #"{"level":3,"tags":["x","y"]}"#, #"{"level":3,"text":"a\"b"}"#]
        let replies = [
            #"{"confirm":{"implemented":false},"handle":{"code":"done","response":{"text":"T"}},"resolutions":{}}"#,
            #"{"confirm":{"code":"ready"},"handle":{"code":"success","response":{}},"resolutions":{"text":{"result":"success"}}}"#,
            #"{"confirm":{"implemented":false},"handle":{"code":"done","response":{"text":"u"}},"resolutions":{"level":{"result":"success","value":3}}}"#,
            // Not all the way: the lane promotes these, both ways.
            #"{"confirm":{"implemented":false},"handle":{"code":"done"},"resolutions":{"level":{"result":"success","value":4}}}"#,
            #"{"resolutions":{"text":{"result":"needsValue"}}}"#, #"{"confirm":{"code":"failure"},"resolutions":{}}"#, "[]",
        ]
        var rewritten = 0
        for request in requests {
            let bytes = Array(request.utf8)
            let pass = try #require(bytes.withUnsafeBytes { check.passes(body: $0) }, "\(request)")
            // What the lane read before: the kept body parsed again at the REPLY.
            let before = LanePass(parameters: try JSON.parse(request).objectValue)
            for reply in replies {
                let none = UnsafeRawBufferPointer(start: nil, count: 0)  // no REPLY header
                let (now, then) = Array(reply.utf8).withUnsafeBytes { replyBody in
                    Array("r1".utf8).withUnsafeBytes { id in
                        (check.rewrite(requestId: id, passed: pass, replyHeader: none, replyBody: replyBody, logger: logger),
                         check.rewrite(requestId: id, passed: before, replyHeader: none, replyBody: replyBody, logger: logger))
                    }
                }
                #expect(now?.header == then?.header && now?.body == then?.body && now?.succeeded == then?.succeeded,
                        "\(request) \(reply)")
                if now != nil { rewritten += 1 }
            }
            let flows = bytes.withUnsafeBytes { body in (check.deliveredFlow(body: body, passed: pass), check.deliveredFlow(body: body, passed: before)) }
            let (a, b) = (try #require(flows.0 as? LegacyFlow), try #require(flows.1 as? LegacyFlow))
            #expect(same(a.parameters, b.parameters) && a.rounds == b.rounds, "\(request)")
        }
        #expect(rewritten >= 9, "\(rewritten) final REPLYs made")
    }
}
