import Foundation
import Testing
import IntentBusTestSupport
@testable import PluginHost
import IntentBusCore
import IntentBusDefinitions

/// The legacy lane's reading of a plugin's `run` REPLY in place (Legacy/LegacyRunScan.swift)
/// against its parse (`LegacyLaneCheck.rewriteParsed`: `JSON.parse`, then
/// `LegacyFlow.finalOfRun`): wherever the scan reads a REPLY, `rewrite` makes the final
/// REPLY the parse makes, byte for byte, header and body; over hand-picked REPLYs and many
/// made of pieces, cut and changed.
@Suite("Legacy lane check: the run REPLY scan")
struct LegacyRunScanTests {
    let definition: IntentDefinition
    let check: LegacyLaneCheck
    let scan: LegacyBodyScan
    let logger = Logger(label: "run-scan", minimumLevel: .error) { _ in }

    init() throws {
        let decoded = DefinitionLoader.decode(text: LegacyBodyScanTests.definitionText, file: "scan.yaml")
        definition = try #require(decoded.definitions.first, "\(decoded.diagnostics)")
        check = LegacyLaneCheck(intent: "ScanIntent", definition: definition, pluginId: "p", translated: false)
        scan = try #require(LegacyBodyScan(definition))
    }

    /// The lane's pass of `request`, and both readings of `reply` for it: whether the scan
    /// read it, the final REPLY `rewrite` makes and the one the parse makes.
    private func readings(_ request: String, _ reply: [UInt8]) throws -> (scanned: Bool, now: LaneRewrite?, parsed: LaneRewrite?) {
        let pass = try #require(Array(request.utf8).withUnsafeBytes { check.passes(body: $0) }, "\(request)")
        let given = try #require(pass.parameters)
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        return reply.withUnsafeBytes { body in
            Array("r1".utf8).withUnsafeBytes { id in
                (scan.run(body, given: given) != nil,
                 check.rewrite(requestId: id, passed: pass, replyHeader: none, replyBody: body, logger: logger),
                 check.rewriteParsed(requestId: id, given: given, replyBody: body, logger: logger))
            }
        }
    }

    private func same(_ a: LaneRewrite?, _ b: LaneRewrite?) -> Bool {
        a?.header == b?.header && a?.body == b?.body && a?.succeeded == b?.succeeded
    }

    /// The resolutions of every declared parameter, in byte order, each to what `request` gave.
    static func allResolved(_ given: [String: String]) -> String {
        ["count", "drink", "flag", "level", "tags", "text", "when"]
            .map { #""\#($0)":{"result":"success","value":\#(given[$0] ?? "null")}"# }.joined(separator: ",")
    }

    @Test("the REPLY a run that went all the way gets is read in place, with the final REPLY the parse makes")
    func common() throws {
        let request = #"{"count":3,"flag":true,"level":3,"text":"buy tea"}"#
        let given = ["count": "3", "flag": "true", "level": "3", "text": "\"buy tea\""]
        let resolved = Self.allResolved(given)
        for confirm in [#"{"implemented":false}"#, #"{"code":"ready"}"#] {
            for response in [#"{"text":"T"}"#, "{\"text\":\"caf\u{e9} \\\"x\\\"\"}", #"{"text":""}"#] {
                let reply = #"{"confirm":\#(confirm),"handle":{"code":"done","response":\#(response)},"resolutions":{\#(resolved)}}"#
                let (scanned, now, parsed) = try readings(request, Array(reply.utf8))
                #expect(scanned && now != nil && same(now, parsed), "\(reply)")
            }
        }
        // Read by the scan, made final by neither: an undeclared code, a response parameter
        // the definition does not declare, none for the dialog (warnings).
        for handle in [#"{"code":"nope","response":{"text":"T"}}"#, #"{"code":"done","response":{"text":"T","zz":1}}"#,
                       #"{"code":"done","response":{}}"#] {
            let reply = #"{"confirm":{"implemented":false},"handle":\#(handle),"resolutions":{\#(resolved)}}"#
            let (scanned, now, parsed) = try readings(request, Array(reply.utf8))
            #expect(scanned && now == nil && parsed == nil, "\(reply)")
        }
        // Left to the parse, which makes them final: a resolution left out, one without a
        // value, a value canonically equivalent to the client's but not its bytes, a response
        // in other bytes, an intent opened.
        let decomposed = try readings(#"{"level":3,"text":"caf\#u{e9}"}"#,
                                      Array(#"{"confirm":{"implemented":false},"handle":{"code":"done","response":{"text":"T"}},"resolutions":{\#(Self.allResolved(["level": "3", "text": "\"cafe\u{301}\""]))}}"#.utf8))
        #expect(!decomposed.scanned && decomposed.parsed != nil && same(decomposed.now, decomposed.parsed))
        // Resolutions without a value (the Python SDK's default resolve): read, and final.
        let valueless = #"{"confirm":{"implemented":false},"handle":{"code":"done","response":{"text":"T"}},"resolutions":{\#(resolved.replacingOccurrences(of: #"{"result":"success","value":3}"#, with: #"{"result":"success"}"#))}}"#
        let bare = try readings(request, Array(valueless.utf8))
        #expect(bare.scanned && bare.now != nil && same(bare.now, bare.parsed), "\(valueless)")
        for reply in [#"{"confirm":{"implemented":false},"handle":{"code":"done","response":{"text":"T"}},"resolutions":{"level":{"result":"success","value":3}}}"#,
                      #"{"confirm":{"implemented":false},"handle":{"code":"done","response":{ "text":"T"}},"resolutions":{\#(resolved)}}"#,
                      #"{"confirm":{"code":"ready","response":{}},"handle":{"code":"done","response":{"text":"T"}},"resolutions":{\#(resolved)}}"#] {
            let (scanned, now, parsed) = try readings(request, Array(reply.utf8))
            #expect(!scanned && parsed != nil && same(now, parsed), "\(reply)")
        }
        // An intent opened: left to the parse, which leaves it to the flow (the lane promotes it).
        let opens = try readings(request, Array(#"{"confirm":{"implemented":false},"handle":{"code":"done","opens_intent":{"intent":"X"},"response":{"text":"T"}},"resolutions":{\#(resolved)}}"#.utf8))
        #expect(!opens.scanned && opens.now == nil && opens.parsed == nil)
        // Not all the way, or not as given: neither makes it final (the lane promotes it).
        for reply in [#"{"confirm":{"code":"failure"},"resolutions":{\#(resolved)}}"#,
                      #"{"confirm":{"implemented":false},"handle":{"code":"done","response":{}},"resolutions":{\#(resolved.replacingOccurrences(of: "\"buy tea\"", with: "\"tea\""))}}"#,
                      #"{"resolutions":{"text":{"result":"needsValue"}}}"#, "[]", ""] {
            let (_, now, parsed) = try readings(request, Array(reply.utf8))
            #expect(now == nil && parsed == nil, "\(reply)")
        }
    }

    static let requests: [(body: String, given: [String: String])] = [
        (#"{"count":3,"flag":true,"level":3,"text":"buy tea"}"#, ["count": "3", "flag": "true", "level": "3", "text": "\"buy tea\""]),
        (#"{"level":3}"#, ["level": "3"]),
        ("{\"level\":-2,\"text\":\"caf\u{e9} \u{1F375}\"}", ["level": "-2", "text": "\"caf\u{e9} \u{1F375}\""]),
        (#"{"drink":"tea","level":3}"#, ["drink": "\"tea\"", "level": "3"]),
        (#"{"level":3,"text":"a\"b"}"#, ["level": "3", "text": #""a\"b""#]),
    ]
    static let names = ["count", "drink", "flag", "level", "tags", "text", "when"]
    static let otherValues = ["4", "\"other\"", "null", "true", "\"\"", "3.0", "[\"x\"]", "\"buy tea\"", "-0", "\"caf\\u00e9\""]
    static let confirms = [#"{"implemented":false}"#, #"{"code":"ready"}"#, #"{"code":"failure"}"#, #"{"implemented":true}"#, "{}",
                           #"{"code":"ready","response":{}}"#]
    static let handles = [#"{"code":"done","response":{"text":"T"}}"#, #"{"code":"done","response":{"text":""}}"#, #"{"code":"done","response":{}}"#,
                          #"{"code":"success","response":{}}"#, #"{"code":"done","response":{"text":"\u0041"}}"#,
                          #"{"code":"done","response":{"text":1}}"#, #"{"code":"done"}"#, #"{"code":"d\u006fne","response":{}}"#]
    static let inserted = Array("{}[]\",:\\ 0n\u{7F}".utf8)

    @Test("wherever the scan reads a REPLY, over REPLYs made of pieces, cut and changed, rewrite makes the parse's final REPLY")
    func agreesWithParse() throws {
        var numbers = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ n: Int) -> Int { numbers.next(n) }
        var scanned = 0, finals = 0, parsedOnly = 0
        for round in 0..<6_000 {
            let request = Self.requests[next(Self.requests.count)]
            // Mostly each name resolved to what the client gave, in order.
            var members: [String] = []
            for name in Self.names {
                switch next(30) {
                case 0: continue  // left out
                case 1: members.append(#""\#(name)":{"result":"success","value":\#(Self.otherValues[next(Self.otherValues.count)])}"#)
                case 2: members.append(#""\#(name)":{"result":"needsValue"}"#)
                case 3: members.append(#""\#(name)":{"result":"success"}"#)
                case 4: members.append(#""\#(name)":{"result":"notRequired"}"#)
                default: members.append(#""\#(name)":{"result":"success","value":\#(request.given[name] ?? "null")}"#)
                }
            }
            if next(20) == 0, members.count > 1 { members.swapAt(0, members.count - 1) }
            if next(30) == 0, let first = members.first { members.append(first) }
            if next(30) == 0 { members.append(#""zz":{"result":"success","value":1}"#) }
            var parts: [String] = []
            if next(15) > 0 { parts.append(#""confirm":\#(next(4) > 0 ? Self.confirms[next(2)] : Self.confirms[next(Self.confirms.count)])"#) }
            if next(15) > 0 { parts.append(#""handle":\#(next(4) > 0 ? Self.handles[next(2)] : Self.handles[next(Self.handles.count)])"#) }
            parts.append(#""resolutions":{\#(members.joined(separator: ","))}"#)
            var reply = Array("{\(parts.joined(separator: ","))}".utf8)
            switch round % 8 {
            case 1 where reply.count > 1: reply.removeLast(next(reply.count))
            case 2: reply[next(reply.count)] = UInt8(next(256))
            case 3: reply.insert(Self.inserted[next(Self.inserted.count)], at: next(reply.count + 1))
            default: break
            }
            let (s, now, parsed) = try readings(request.body, reply)
            #expect(same(now, parsed), "\(request.body) \(String(decoding: reply, as: UTF8.self))")
            if s { scanned += 1 }
            if parsed != nil { finals += 1; if !s { parsedOnly += 1 } }
        }
        // The scan does read REPLYs, and leaves some the parse makes final to it (a scan that
        // read nothing would agree vacuously).
        #expect(scanned > 400 && finals > scanned / 2 && parsedOnly > 50, "\(scanned) read by the scan, \(finals) final, \(parsedOnly) by the parse only")
    }
}
