import Foundation
import Testing
import IntentBus
import PluginHost
import IntentBusTestSupport

/// One valid message from `conformance/*.json`: its fields and the exact frames a sender writes.
struct ConformanceVector: Sendable, CustomTestStringConvertible {
    let name: String
    let kind: String
    let requestId: String
    let intent: String
    /// nil = an empty frame.
    let header: JSON?
    let body: JSON?
    let frames: [Data]
    let errorCode: String?

    var testDescription: String { name }
}

/// Frames a receiver must refuse, from `conformance/malformed.json`.
struct MalformedVector: Sendable, CustomTestStringConvertible {
    let name: String
    let frames: [Data]
    /// `invalid`: the error code decoding reports; `bad_json`: "header" or "body".
    let expectation: String
    let decodes: Bool

    var testDescription: String { name }
}

/// A HELLO with new-style metadata and the host's verdict on it.
struct MetadataVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hello: JSON
    let problems: [String]

    var testDescription: String { name }
}

/// Reads the shared vectors. The Python suite (clients/python/tests/test_conformance.py)
/// reads the same files; both must agree with them byte for byte.
enum Conformance {
    static let directory = "\(Products.root)/conformance"

    static func file(_ name: String) -> JSON {
        guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)"),
              let json = try? JSON.parse(data) else { return .object([:]) }
        return json
    }

    static func hex(_ text: String) -> Data {
        var out = Data()
        var chars = Array(text.utf8)[...]
        while chars.count >= 2 {
            out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) ?? 0)
            chars = chars.dropFirst(2)
        }
        return out
    }

    static func frames(_ v: JSON) -> [Data] { (v["frames"]?.arrayValue ?? []).map { hex($0["hex"]?.stringValue ?? "") } }

    /// A vector's header or body: JSON `null` stands for an empty frame. (A plain `nil`
    /// literal would become `JSON.null`, which is ExpressibleByNilLiteral.)
    static func frameValue(_ v: JSON?) -> JSON? {
        guard let v, !v.isNull else { return Optional<JSON>.none }
        return v
    }

    static func vector(_ v: JSON) -> ConformanceVector {
        let m = v["message"] ?? .object([:])
        return ConformanceVector(
            name: v["name"]?.stringValue ?? "?", kind: m["kind"]?.stringValue ?? "", requestId: m["request_id"]?.stringValue ?? "",
            intent: m["intent"]?.stringValue ?? "", header: frameValue(m["header"]),
            body: frameValue(m["body"]), frames: frames(v), errorCode: v["error_code"]?.stringValue)
    }

    static let vectors: [ConformanceVector] = {
        var out: [JSON] = []
        for name in ["messages.json", "handshake.json", "errors.json", "json.json", "newstyle.json"] {
            out += file(name)["vectors"]?.arrayValue ?? []
        }
        for name in ["conversations.json", "legacy.json", "newstyle.json"] {
            for conversation in file(name)["conversations"]?.arrayValue ?? [] {
                out += conversation["steps"]?.arrayValue ?? []
            }
        }
        return out.map(vector)
    }()

    /// HELLO bodies from `newstyle.json` with the problems the host's metadata check
    /// must report for them (none for a valid one).
    static let metadataVectors: [MetadataVector] = (file("newstyle.json")["vectors"]?.arrayValue ?? []).compactMap { v in
        guard let problems = v["metadata_problems"]?.arrayValue else { return nil }
        return MetadataVector(name: v["name"]?.stringValue ?? "?", hello: v["message"]?["body"] ?? .null,
                              problems: problems.compactMap(\.stringValue))
    }

    static let malformed: [MalformedVector] = {
        let f = file("malformed.json")
        let invalid = (f["invalid"]?.arrayValue ?? []).map {
            MalformedVector(name: $0["name"]?.stringValue ?? "?", frames: frames($0),
                            expectation: $0["error"]?.stringValue ?? "", decodes: false)
        }
        let badJSON = (f["bad_json"]?.arrayValue ?? []).map {
            MalformedVector(name: $0["name"]?.stringValue ?? "?", frames: frames($0),
                            expectation: $0["bad"]?.stringValue ?? "", decodes: true)
        }
        return invalid + badJSON
    }()
}

@Suite("Conformance vectors")
struct ConformanceTests {
    @Test("every vector file is there, parses, and holds vectors: a missing file fails, never passes vacuously",
          arguments: ["messages.json", "handshake.json", "errors.json", "json.json", "newstyle.json", "conversations.json",
                      "legacy.json", "malformed.json"])
    func vectorFileIsRead(_ name: String) throws {
        let data = try #require(FileManager.default.contents(atPath: "\(Conformance.directory)/\(name)"),
                                "conformance/\(name) is missing or unreadable")
        let json = try JSON.parse(data)
        let count = (json["vectors"]?.arrayValue?.count ?? 0) + (json["conversations"]?.arrayValue?.count ?? 0)
            + (json["invalid"]?.arrayValue?.count ?? 0) + (json["bad_json"]?.arrayValue?.count ?? 0)
        #expect(count > 0, "conformance/\(name) holds no vectors")
    }

    @Test("the vectors cover every message kind, error code and prompt kind")
    func coverage() {
        #expect(Set(Conformance.vectors.map(\.kind)) == Set(MessageKind.allCases.map(\.rawValue)))
        #expect(Set(Conformance.vectors.compactMap(\.errorCode)) == Set(ErrorCode.allCases.map(\.rawValue)))
        let promptKinds = Set(Conformance.vectors.filter { $0.kind == "PROMPT" }.compactMap { $0.body?["kind"]?.stringValue })
        #expect(promptKinds == ["value", "disambiguation", "confirmation", "plugin_choice"])
        #expect(Conformance.malformed.count >= 10)
    }

    @Test("the legacy and new-style vectors are read: every legacy phase, both metadata verdicts")
    func legacyAndNewStyleCoverage() {
        let phases = Set(Conformance.vectors.filter { $0.kind == "REQUEST" }.compactMap { $0.header?["phase"]?.stringValue })
        #expect(phases == ["resolve", "confirm", "handle"])
        #expect(Conformance.vectors.contains { $0.body?["reason"]?.stringValue == "needs_value" })
        #expect(Conformance.vectors.contains { $0.intent == "ib.entities" })
        #expect(Conformance.metadataVectors.contains { $0.problems.isEmpty })
        #expect(Conformance.metadataVectors.contains { !$0.problems.isEmpty })
    }

    @Test("the host's new-style metadata check gives each HELLO's listed problems", arguments: Conformance.metadataVectors)
    func metadataProblems(_ v: MetadataVector) {
        #expect(NewStyleMetadata.problems(inHello: v.hello) == v.problems)
    }

    @Test("encoding gives exactly the vector's frames", arguments: Conformance.vectors)
    func encode(_ v: ConformanceVector) throws {
        let kind = try #require(MessageKind(rawValue: v.kind))
        let msg = WireMessage(kind: kind, requestId: v.requestId, intent: v.intent, header: v.header, body: v.body)
        #expect(msg.frames.map(\.data) == v.frames)
    }

    @Test("decoding the frames gives the vector's message, and re-encoding the same bytes", arguments: Conformance.vectors)
    func decode(_ v: ConformanceVector) throws {
        let msg = try WireMessage.decode(v.frames.map { Frame(data: $0) }[...])
        #expect(msg.kind.rawValue == v.kind)
        #expect(msg.requestId == v.requestId)
        #expect(msg.intent == v.intent)
        #expect(msg.header.data == v.frames[4])
        #expect(msg.body.data == v.frames[5])
        let header = try msg.headerJSON(), body = try msg.bodyJSON()
        #expect(header == (v.header ?? .object([:])))
        #expect(body == (v.body ?? .object([:])))
        if v.header != nil { #expect(header.canonicalData == v.frames[4]) }
        if v.body != nil { #expect(body.canonicalData == v.frames[5]) }
    }

    @Test("ERROR bodies read back as the same BusError", arguments: Conformance.vectors.filter { $0.errorCode != nil })
    func errorBodies(_ v: ConformanceVector) throws {
        let msg = try WireMessage.decode(v.frames.map { Frame(data: $0) }[...])
        let error = BusError(json: try msg.bodyJSON())
        #expect(error.code.rawValue == v.errorCode)
        #expect(error.json.canonicalData == v.frames[5])
    }

    @Test("malformed frames are refused with their code; bad JSON decodes as frames but not as JSON",
          arguments: Conformance.malformed)
    func malformed(_ v: MalformedVector) throws {
        let frames = v.frames.map { Frame(data: $0) }[...]
        if !v.decodes {
            let error = #expect(throws: WireError.self) { try WireMessage.decode(frames) }
            #expect(error?.code.rawValue == v.expectation)
            return
        }
        let msg = try WireMessage.decode(frames)
        #expect(throws: JSONParseError.self) {
            if v.expectation == "header" { _ = try msg.headerJSON() } else { _ = try msg.bodyJSON() }
        }
    }
}
