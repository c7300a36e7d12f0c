import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End to end: requests whose header carries a client's name, a credential, a locale or a
/// timeout on the relay lane (Relay/LaneHeaders.swift), for a plain, a new-style and a
/// legacy intent. The same header and body bytes go to a host with the lane and to one
/// without (`INTENTBUS_RELAY_LANE=0`): every final's frames must be the same bytes (the
/// plain plugin echoes the header it was delivered; the new-style one answers in the
/// header's locale), the donations the same with their client; `ib.status` says which
/// took the lane.
@Suite("Client headers on the relay lane, end to end", .serialized)
struct LaneClientHeadersEndToEndTests {
    static let newStyleIntents = ["RequiredIntent", "GreetingIntent"]

    private static func host(lane: Bool, tables: TempDir) throws -> TestHost {
        _ = tables.write("Intents.xcstrings", """
            {"sourceLanguage": "de", "version": "1.0", "strings": {
              "greeting": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Hello %@!"}}}}}}
            """)
        return try TestHost(TestManifest(.test("t", intents: ["TestIntent"]),
                                         .newStyle("ns", intents: newStyleIntents,
                                                   env: ["NEWSTYLE_APPINTENTS": "1", "APPINTENTS_LOCALIZATIONS": tables.path]),
                                         .legacy()),
                            waitReady: ["t", "ns", "legacytest"], environment: lane ? [:] : ["INTENTBUS_RELAY_LANE": "0"])
    }

    private func relayed(_ host: TestHost) throws -> Int64 {
        try host.client().control("ib.status")["host"]?["relay"]?["relayed"]?.intValue ?? -1
    }

    /// One request with exactly these header and body bytes on a DEALER: the final's kind,
    /// header and body bytes.
    private func exchange(_ host: TestHost, _ intent: String, header: String, body: String) throws -> String {
        let dealer = try host.rawDealer()
        try dealer.send(WireMessage(kind: .request, requestId: "h1", intent: intent, header: Frame(data: Data(header.utf8)),
                                    body: Frame(data: Data(body.utf8))).frames)
        while true {
            guard let frames = try dealer.receive() else { throw TestFailure("no answer to \(intent) \(header) \(body)") }
            let msg = try WireMessage.decode(frames[...])
            guard msg.kind == .reply || msg.kind == .error else { continue }
            return "\(msg.kind) \(msg.intent) header=\(String(decoding: msg.header.data, as: UTF8.self)) "
                + "body=\(String(decoding: msg.body.data, as: UTF8.self))"
        }
    }

    /// Requests, as bytes, and whether each takes the lane on a lane host.
    static let requests: [(intent: String, header: String, body: String, lane: Bool)] = [
        ("TestIntent", #"{"client":"kitchen"}"#, #"{"echo_header":true}"#, true),
        ("TestIntent", #"{"client":"hall","credential":"not-checked-here","timeout_ms":5000}"#, #"{"echo_header":true}"#, true),
        ("TestIntent", #"{"locale":"de-DE"}"#, #"{"echo_header":true}"#, true),
        ("TestIntent", #"{ "client" : "kitchen" }"#, #"{"echo_header":true}"#, true),   // another spelling, its own row
        ("TestIntent", #"{"client":"kitchen","plugin":"t"}"#, #"{"echo_header":true}"#, false),
        ("TestIntent", #"{"client":"kitchen","context":{"area":"hall"}}"#, #"{"echo_header":true}"#, false),
        ("TestIntent", #"{"client":5}"#, #"{"echo_header":true}"#, false),               // refused: bad_frame
        ("TestIntent", #"{"client":"kitchen","later_field":1}"#, #"{"echo_header":true}"#, false),
        ("RequiredIntent", #"{"client":"kitchen"}"#, #"{"count":3,"name":"Ada"}"#, true),
        ("RequiredIntent", #"{"client":"hall","locale":"en"}"#, #"{"count":4,"name":"Bo"}"#, true),
        ("GreetingIntent", #"{"locale":"en-US"}"#, #"{"name":"Ada"}"#, true),
        ("GreetingIntent", #"{"client":"kitchen","locale":"ja"}"#, #"{"name":"Cy"}"#, true),
        ("GreetingIntent", #"{"locale":5}"#, #"{"name":"Cy"}"#, false),                  // refused: bad_frame
        ("ResolveIntent", #"{"client":"kitchen"}"#, #"{"kind":"success","target":"x"}"#, true),
        ("ResolveIntent", #"{"client":"hall","locale":"de","timeout_ms":4000}"#, #"{"kind":"success","target":"y"}"#, true),
        ("ResolveIntent", #"{"client":"kitchen","run_key":"k1"}"#, #"{"kind":"success","target":"z"}"#, false),
    ]

    private func scenario(_ host: TestHost) throws -> (finals: [String], donations: [String], relayed: [Int64]) {
        // Each route's first plain REPLY header is checked by the general path.
        _ = try exchange(host, "TestIntent", header: "", body: "{}")
        var finals: [String] = [], relayedAfter: [Int64] = [try relayed(host)]
        for r in Self.requests {
            finals.append(try exchange(host, r.intent, header: r.header, body: r.body))
            relayedAfter.append(try relayed(host))
        }
        var donations: [String] = []
        for plugin in ["ns", "legacytest"] {
            let listed = try host.client().control("ib.donations.list", ["plugin": .string(plugin)])["donations"]?.arrayValue ?? []
            donations += listed.map { d in
                ["intent", "parameters", "plugin", "client", "source", "count"].map { "\($0)=\(d[$0]?.canonicalString ?? "-")" }
                    .joined(separator: " ")
            }
        }
        return (finals, donations.sorted(), relayedAfter)
    }

    @Test("a client's name, credential, locale and timeout: the same final bytes and donations with the lane and without, and the lane takes them")
    func sameBothWays() throws {
        let tables = TempDir()
        defer { tables.remove() }
        let lane = try Self.host(lane: true, tables: tables)
        defer { lane.stop() }
        let off = try Self.host(lane: false, tables: tables)
        defer { off.stop() }
        let onLane = try scenario(lane)
        let without = try scenario(off)
        #expect(onLane.finals == without.finals)
        for (i, (a, b)) in zip(onLane.finals, without.finals).enumerated() where a != b {
            Issue.record("\(Self.requests[i].intent) \(Self.requests[i].header)\nlane: \(a)\noff:  \(b)")
        }
        #expect(onLane.donations == without.donations)
        // Which took the lane: the count went up by one after exactly those.
        for (i, r) in Self.requests.enumerated() {
            #expect(onLane.relayed[i + 1] - onLane.relayed[i] == (r.lane ? 1 : 0), "\(r.intent) \(r.header): \(onLane.relayed)")
        }
        #expect(without.relayed.allSatisfy { $0 == 0 })
        // What the plugins were given, read back from the answers.
        #expect(onLane.finals[0].contains(#""header":{"client":"kitchen"}"#), "\(onLane.finals[0])")
        #expect(onLane.finals[1].contains(#""header":{"client":"hall"}"#) && !onLane.finals[1].contains("not-checked-here"),
                "the credential never reaches the plugin: \(onLane.finals[1])")
        #expect(!onLane.finals[2].contains("de-DE"), "a plain plugin is not given the locale: \(onLane.finals[2])")
        #expect(onLane.finals[6].hasPrefix("error") && onLane.finals[6].contains("bad_frame"), "\(onLane.finals[6])")
        #expect(onLane.finals[10].contains("Hello Ada!"), "the locale reached perform(): \(onLane.finals[10])")
        #expect(onLane.finals[11].contains("Hallo Cy!"), "no table for ja: the default value: \(onLane.finals[11])")
        #expect(onLane.donations.contains { $0.contains(#"client="kitchen""#) && $0.contains("RequiredIntent") },
                "the lane's donation keeps the client's name: \(onLane.donations)")
        #expect(onLane.donations.contains { $0.contains(#"client="hall""#) && $0.contains("ResolveIntent") }, "\(onLane.donations)")
    }
}
