import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End to end: legacy requests on the relay lane (Legacy/LegacyLaneCheck.swift,
/// Relay/RelayLane+Checked.swift). The real host and LegacyTest plugin (which announces the
/// one-trip `run`), the same requests to a host with the lane and to one without
/// (`INTENTBUS_RELAY_LANE=0`): every REPLY's frames must be the same bytes, every question,
/// answer and donation the same; `ib.status` (`host.relay`) says which path each took.
@Suite("Legacy requests on the relay lane, end to end", .serialized)
struct LegacyLaneEndToEndTests {
    private static func host(lane: Bool) throws -> TestHost {
        try TestHost(TestManifest(.legacy()), waitReady: ["legacytest"],
                     environment: lane ? [:] : ["INTENTBUS_RELAY_LANE": "0"])
    }

    private func relay(_ host: TestHost) throws -> (relayed: Int64, promoted: Int64) {
        let relay = try host.client().control("ib.status")["host"]?["relay"]
        return (relay?["relayed"]?.intValue ?? -1, relay?["promoted"]?.intValue ?? -1)
    }

    /// One request with exactly these body bytes on a DEALER: the final's kind, header and
    /// body bytes, and any second final that follows within `after` ms.
    private func exchange(_ host: TestHost, _ intent: String, _ body: String, id: String = "r1",
                          cancel: Bool = false, after: Int32 = 0) throws -> String {
        let dealer = try host.rawDealer()
        try dealer.send(WireMessage(kind: .request, requestId: id, intent: intent,
                                    header: Frame(), body: Frame(data: Data(body.utf8))).frames)
        if cancel { try dealer.send(WireMessage(kind: .cancel, requestId: id, intent: intent, header: nil, body: nil).frames) }
        var finals: [String] = []
        while finals.isEmpty {
            guard let frames = try dealer.receive() else { throw TestFailure("no answer to \(intent) \(body)") }
            let msg = try WireMessage.decode(frames[...])
            guard msg.kind == .reply || msg.kind == .error else { continue }
            // The flow writes its final REPLY's header and body keys itself, in canonical
            // order (LegacyFlow+Finish.swift): the bytes must be what `canonicalBytes` writes.
            if msg.kind == .reply {
                for (frame, what) in [(msg.header, "header"), (msg.body, "body")] {
                    var canonical = false
                    _ = try? frame.withBytes { try JSON.parse(bytes: $0, isCanonical: &canonical) }
                    #expect(canonical, "\(intent) \(body): the REPLY's \(what) is not canonical: \(String(decoding: frame.data, as: UTF8.self))")
                }
            }
            finals.append("\(msg.kind) \(msg.requestId) \(msg.intent) header=\(String(decoding: msg.header.data, as: UTF8.self)) "
                          + "body=\(String(decoding: msg.body.data, as: UTF8.self))")
        }
        if after > 0 {
            try dealer.setReceiveTimeout(milliseconds: after)
            while let frames = try dealer.receive() {
                let msg = try WireMessage.decode(frames[...])
                if msg.kind == .reply || msg.kind == .error { finals.append("second \(msg.kind)") }
            }
        }
        return finals.joined(separator: " | ")
    }

    /// What the client saw of one request with questions: its prompts, then its reply.
    private func talk(_ client: IntentClient, _ intent: String, _ parameters: JSON, answers: [JSON]) -> String {
        let conversation = Conversation(answers)
        do {
            let reply = try client.send(intent, parameters: parameters, onEvent: conversation.handle)
            return conversation.prompts.map { "prompt \($0.raw.canonicalString)" }.joined(separator: " | ")
                + " | reply \(reply.status) \(reply.header.canonicalString) \(reply.body.canonicalString)"
        } catch {
            return "failed \(error)"
        }
    }

    /// Bodies, as bytes, and which path each takes on a lane host.
    static let bodies: [(intent: String, body: String, path: String)] = [
        ("ResolveIntent", #"{"kind":"success","target":"x"}"#, "relayed"),
        ("ResolveIntent", #"{"kind":"notRequired"}"#, "relayed"),
        ("ConfirmIntent", #"{"allow":true}"#, "relayed"),
        ("TypesIntent", #"{"count":7,"flag":true,"tags":["a","b"]}"#, "relayed"),
        ("ResolveIntent", #"{"kind":"success","target":"fail"}"#, "relayed"),     // a failure code: no donation
        ("ConfirmIntent", #"{"allow":false}"#, "promoted"),          // confirm not ready: its failure code
        ("ResolveIntent", #"{"kind":"success","target":"bogus"}"#, "promoted"),  // an undeclared code
        ("ResolveIntent", #"{"kind":"success","target":"throw"}"#, "promoted"),  // the plugin's ERROR
        ("TypesIntent", #"{"count":"7"}"#, "flow"),                   // normalized by the host
        ("TypesIntent", #"{"flag":"yes"}"#, "flow"),
        ("TypesIntent", #"{"count":11}"#, "flow"),                    // out of range
        ("ResolveIntent", #"{ "kind": "success", "target": "x" }"#, "flow"),  // not canonical text
        ("ResolveIntent", #"{"kind":"success","target":"x","tagret":1}"#, "flow"),  // unknown
        ("ResolveIntent", #"{"kind":"success","target":null}"#, "flow"),
        ("ResolveIntent", "[1]", "flow"),
        ("TypesIntent", "", "flow"),                                  // empty: {} to the flow
    ]

    @Test("the same REPLY and ERROR bytes with the lane and without; what passes is relayed, the rest promoted or never on it")
    func sameBytes() throws {
        let lane = try Self.host(lane: true)
        defer { lane.stop() }
        let off = try Self.host(lane: false)
        defer { off.stop() }
        var (relayed, promoted) = (Int64(0), Int64(0))
        for (i, (intent, body, path)) in Self.bodies.enumerated() {
            let before = try relay(lane)
            let a = try exchange(lane, intent, body, id: "b\(i)")
            let after = try relay(lane)
            let b = try exchange(off, intent, body, id: "b\(i)")
            #expect(a == b, "\(intent) \(body)\nlane: \(a)\noff:  \(b)")
            let took = after.relayed > before.relayed ? "relayed" : after.promoted > before.promoted ? "promoted" : "flow"
            #expect(took == path, "\(intent) \(body): \(took), \(a)")
            // What the lane answers itself is the rendered dialog, as the flow writes it.
            if path == "relayed" { #expect(a.hasPrefix("reply b\(i) \(intent)") && a.contains(#""dialog":"#), "\(a)") }
            if body.contains("fail\"") { #expect(a.contains(#""status":"failure""#), "\(a)") }
            if took == "relayed" { relayed += 1 } else if took == "promoted" { promoted += 1 }
        }
        #expect(relayed == 5 && promoted == 3)
        let none = try relay(off)
        #expect(none.relayed == 0 && none.promoted == 0, "\(none)")
        // The host's own donations, of the successful requests, the same both ways.
        func donations(_ host: TestHost) throws -> [String] {
            let listed = try host.client().control("ib.donations.list", ["plugin": "legacytest"])["donations"]?.arrayValue ?? []
            return listed.map { d in
                ["intent", "parameters", "plugin", "client", "source", "count"].map { "\($0)=\(d[$0]?.canonicalString ?? "-")" }
                    .joined(separator: " ")
            }.sorted()
        }
        let donated = try donations(lane)
        let without = try donations(off)
        #expect(donated == without, "lane: \(donated)\noff:  \(without)")
        #expect(!donated.contains { $0.contains(#""target":"fail""#) }, "a failure is not donated: \(donated)")
        #expect(donated.contains { $0.contains(#"parameters={"count":7,"flag":true,"tags":["a","b"]}"#) && $0.contains(#"source="host""#) },
                "\(donated)")
    }

    @Test("a question mid-run reaches the client and its answer completes the request, as without the lane")
    func questions() throws {
        let lane = try Self.host(lane: true)
        defer { lane.stop() }
        let off = try Self.host(lane: false)
        defer { off.stop() }
        // The plugin's question promotes the request, also for a required parameter the
        // client left out: the flow, too, sends that body to the plugin, whose resolution asks.
        let scripts: [(JSON, [JSON], promoted: Bool)] = [
            (["kind": "needsValue"], ["filled"], true),
            (["kind": "confirmationRequired", "target": "x"], [false, "y", true], true),
            (["kind": "disambiguation", "target": "Opt"], ["o9", "o2"], true),
            (["kind": "unsupported", "target": "bad"], ["good"], true),
            (["target": "x"], ["nope", "success"], true),
        ]
        let client = try lane.client(), plain = try off.client()
        for (parameters, answers, promoted) in scripts {
            let before = try relay(lane)
            let a = talk(client, "ResolveIntent", parameters, answers: answers)
            let after = try relay(lane)
            let b = talk(plain, "ResolveIntent", parameters, answers: answers)
            #expect(a == b, "\(parameters)\nlane: \(a)\noff:  \(b)")
            #expect(a.hasPrefix("prompt") && a.contains("| reply success"), "\(a)")
            #expect(after.promoted == before.promoted + (promoted ? 1 : 0) && after.relayed == before.relayed, "\(parameters): \(after)")
        }
    }

    @Test("a plugin ERROR, a plugin's exit and a client's CANCEL while on the lane each end the request with one final answer")
    func oneFinalAnswer() throws {
        let lane = try Self.host(lane: true)
        defer { lane.stop() }
        let thrown = try exchange(lane, "ResolveIntent", #"{"kind":"success","target":"throw"}"#, id: "t", after: 500)
        #expect(thrown.hasPrefix("error t ResolveIntent") && !thrown.contains("second"), "\(thrown)")
        #expect(thrown.contains("the handler threw"), "\(thrown)")

        let cancelled = try exchange(lane, "ResolveIntent", #"{"kind":"success","target":"slow"}"#, id: "c", cancel: true, after: 2500)
        #expect(cancelled.hasPrefix("error c ResolveIntent") && cancelled.contains("\"cancelled\"") && !cancelled.contains("second"),
                "\(cancelled)")

        let before = try relay(lane)
        let pid = try lane.plugin("legacytest")?["pid"]?.intValue
        let died = try exchange(lane, "ResolveIntent", #"{"kind":"success","target":"exit"}"#, id: "x", after: 1000)
        #expect(died.hasPrefix("error x ResolveIntent") && !died.contains("second"), "\(died)")
        #expect(try relay(lane).promoted == before.promoted + 1)
        // The host goes on: the restarted plugin's requests take the lane again.
        try lane.waitForPlugin("legacytest", state: "ready", notPid: pid)
        let again = try exchange(lane, "ResolveIntent", #"{"kind":"success","target":"x"}"#, id: "y")
        #expect(again.hasPrefix("reply y ResolveIntent") && again.contains("Done with x."), "\(again)")
        #expect(try relay(lane).relayed == before.relayed + 1)
    }
}
