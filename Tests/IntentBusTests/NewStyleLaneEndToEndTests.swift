import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End to end: new-style `perform()` requests on the relay lane (Relay/RelayLane+Checked.swift,
/// NewStyle/NewStyleLaneCheck.swift). The same requests go to a host with the lane and
/// to one without (`INTENTBUS_RELAY_LANE=0`): every answer, question and donation must be
/// the same, and `ib.status` (`host.relay`) says which path each took on the first.
@Suite("New-style requests on the relay lane, end to end", .serialized)
struct NewStyleLaneEndToEndTests {
    private func relay(_ host: TestHost) throws -> (relayed: Int64, promoted: Int64) {
        let relay = try host.client().control("ib.status")["host"]?["relay"]
        return (relay?["relayed"]?.intValue ?? -1, relay?["promoted"]?.intValue ?? -1)
    }

    /// What the client saw of one request: its questions, then its reply or error.
    private func outcome(_ client: IntentClient, _ intent: String, _ parameters: JSON, answers: [JSON] = []) -> String {
        var seen: [String] = []
        var left = answers
        do {
            let reply = try client.send(intent, parameters: parameters) { event in
                guard case .prompt(let p) = event else { return nil }
                seen.append("prompt \(p.raw.canonicalString)")
                return left.isEmpty ? nil : ["value": left.removeFirst()]
            }
            seen.append("reply \(reply.status) \(reply.plugin ?? "-") \(reply.header.canonicalString) \(reply.body.canonicalString)")
        } catch ClientError.bus(let e) {
            seen.append("error \(e.code.rawValue) \(e.message) \(e.details.canonicalString)")
        } catch {
            seen.append("failed \(error)")
        }
        return seen.joined(separator: " | ")
    }

    /// A client's CANCEL while its request is open (the plugin asks a question it never
    /// gets answered): the one final the client gets.
    private func cancelled(_ host: TestHost, id: String) throws -> [String] {
        let dealer = try host.rawDealer()
        try dealer.send(WireMessage(kind: .request, requestId: id, intent: "QuestionsIntent", header: nil,
                                    body: ["ask": "value", "minutes": 30, "token": .string(id)]).frames)
        try dealer.send(WireMessage(kind: .cancel, requestId: id, intent: "QuestionsIntent", header: nil, body: nil).frames)
        var finals: [String] = []
        while finals.isEmpty {
            guard let frames = try dealer.receive() else { throw TestFailure("no answer") }
            let msg = try WireMessage.decode(frames[...])
            switch msg.kind {
            case .reply: finals.append("reply")
            case .error: finals.append(BusError(json: try msg.bodyJSON()).code.rawValue)
            default: continue  // a PROMPT sent before the CANCEL arrived
            }
        }
        try dealer.setReceiveTimeout(milliseconds: 500)
        while let frames = try dealer.receive() {
            let msg = try WireMessage.decode(frames[...])
            if msg.kind == .reply || msg.kind == .error { finals.append("second \(msg.kind)") }
        }
        return finals
    }

    /// The same requests, in the same order, on a host; the answers and the donations.
    private func scenario(_ host: TestHost) throws -> (answers: [String], donations: [String]) {
        let client = try host.client()
        var answers: [String] = []
        answers.append(outcome(client, "RequiredIntent", ["name": "Ada", "count": 3]))            // valid, as given
        answers.append(outcome(client, "RequiredIntent", ["name": "Ada", "count": 11]))           // out of range
        answers.append(outcome(client, "RequiredIntent", ["name": "Ada", "count": "x"]))          // wrong type
        answers.append(outcome(client, "RequiredIntent", ["name": "Ada", "count": 3, "nmae": 1])) // unknown
        answers.append(outcome(client, "RequiredIntent", ["count": 3], answers: ["Bo"]))          // host question
        answers.append(outcome(client, "RequiredIntent", ["name": "Cy"]))                         // a default to add
        answers.append(outcome(client, "RequiredIntent", ["name": "Di", "count": 2, "x": .null])) // unknown null
        answers.append(outcome(client, "RequiredIntent", .array([1])))                           // not an object
        // Asks mid-perform: a bad answer is refused by the host, a good one reaches perform().
        let asks: JSON = ["ask": "value", "minutes": 30, "token": "q", "code": 1]
        answers.append(outcome(client, "QuestionsIntent", asks, answers: [500]))
        answers.append(outcome(client, "QuestionsIntent", asks, answers: [20]))
        answers.append(outcome(client, "QuestionsIntent", ["ask": "confirm_intent", "minutes": 30, "token": "q"], answers: [true]))
        answers.append(try cancelled(host, id: "cancel-1").joined(separator: ","))
        let listed = try client.control("ib.donations.list", ["plugin": "ns"])["donations"]?.arrayValue ?? []
        let donations = listed.map { d in
            ["intent", "parameters", "plugin", "client", "source", "count"].map { "\($0)=\(d[$0]?.canonicalString ?? "-")" }
                .joined(separator: " ")
        }.sorted()
        return (answers, donations)
    }

    @Test("perform() answers, questions, errors and donations are the same with the lane and without; status says which took the lane")
    func sameBothWays() throws {
        let lane = try TestHost(TestManifest(.newStyle("ns")), waitReady: ["ns"])
        defer { lane.stop() }
        // The flow reads only `status` of a REPLY header: the lane forwards even the first one.
        _ = outcome(try lane.client(), "RequiredIntent", ["name": "Warm", "count": 1])
        let warm = try relay(lane)
        #expect(warm.relayed == 1 && warm.promoted == 0, "\(warm)")
        let off = try TestHost(TestManifest(.newStyle("ns")), waitReady: ["ns"], environment: ["INTENTBUS_RELAY_LANE": "0"])
        defer { off.stop() }
        _ = outcome(try off.client(), "RequiredIntent", ["name": "Warm", "count": 1])

        let onLane = try scenario(lane)
        let counted = try relay(lane)
        let without = try scenario(off)
        #expect(onLane.answers == without.answers)
        for (a, b) in zip(onLane.answers, without.answers) where a != b { Issue.record("lane: \(a)\noff:  \(b)") }
        #expect(onLane.answers[0].hasPrefix("reply success ns"), "\(onLane.answers[0])")
        #expect(onLane.answers[8].hasPrefix("prompt") && onLane.answers[8].contains("error invalid_parameters"), "\(onLane.answers[8])")
        #expect(onLane.answers[11] == "cancelled")
        #expect(onLane.donations == without.donations)
        #expect(onLane.donations.contains { $0.contains("parameters={\"count\":3,\"name\":\"Ada\"}") && $0.contains("source=\"host\"") },
                "the lane request's donation: \(onLane.donations)")
        // On the lane: the valid request (relayed); the three that ask mid-perform and the
        // cancelled one (promoted when the plugin's PROMPT or the CANCEL came). The rest never
        // entered it: their bodies needed the flow.
        #expect(counted.relayed - warm.relayed == 1, "\(counted)")
        #expect(counted.promoted - warm.promoted == 4, "\(counted)")
        let none = try relay(off)
        #expect(none.relayed == 0 && none.promoted == 0, "\(none)")
    }

    @Test("pipelined valid perform() requests all take the lane: one REPLY each, with its own body")
    func pipelined() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")), waitReady: ["ns"])
        defer { host.stop() }
        _ = outcome(try host.client(), "RequiredIntent", ["name": "Warm", "count": 1])
        let dealer = try host.rawDealer()
        let n = 50
        for i in 0..<n {
            try dealer.send(WireMessage(kind: .request, requestId: "p\(i)", intent: "RequiredIntent", header: nil,
                                        body: ["name": .string("n\(i)"), "count": .int(Int64(1 + i % 10))]).frames)
        }
        var got: [String: JSON] = [:]
        while got.count < n {
            guard let frames = try dealer.receive() else { throw TestFailure("no answer") }
            let msg = try WireMessage.decode(frames[...])
            #expect(msg.kind == .reply && got[msg.requestId] == nil, "\(msg.kind) \(msg.requestId)")
            got[msg.requestId] = try msg.bodyJSON()["snippet"]
        }
        for i in 0..<n { #expect(got["p\(i)"] == ["name": .string("n\(i)"), "count": .int(Int64(1 + i % 10))]) }
        let counted = try relay(host)
        #expect(counted.relayed == Int64(n) + 1 && counted.promoted == 0, "\(counted)")
    }
}
