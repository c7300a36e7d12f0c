import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusTestSupport
@testable import PluginHost

/// Admission as a value (`Admission`, `RequestFacts`), and the same rules on both paths:
/// the relay lane and the core's general path ask the same `Admission.problem`, each with
/// the facts it counts, so a rule written there holds for a request whichever path it
/// would take.
@Suite("Admission", .serialized)
struct AdmissionTests {
    private static func limits(_ yaml: String = "") throws -> HostLimits {
        let text = "host:\n  state_dir: /nonexistent/admission/state\n" + yaml + "plugins: []\n"
        return try ManifestLoader.load(text: text, path: "/nonexistent/admission/plugins.yaml").host.limits
    }

    private static let fine = RequestFacts(size: 10, hasId: true, shuttingDown: false, clientBacklog: 0, clientOpen: 0,
                                           hostOpen: 0, clientBytes: 0, hostBytes: 0)

    @Test("each rule, in order: size, id, shutdown, header, backlog, client open, host open, client bytes, host bytes")
    func rules() throws {
        let admission = Admission(limits: try Self.limits("  limits:\n    max_open_per_client: 3\n    max_open_exchanges: 5\n"))
        let l = admission.limits
        #expect(admission.problem(Self.fine) == nil)
        func code(_ change: (inout RequestFacts) -> Void, header: BusError? = nil) -> String? {
            var f = Self.fine
            change(&f)
            return admission.problem(f) { header }.map { "\($0.code.rawValue)" }
        }
        #expect(code { $0.size = l.maxMessageSize + 1; $0.hasId = false } == "too_large")
        #expect(code { $0.hasId = false; $0.shuttingDown = true } == "bad_frame")
        #expect(code({ $0.shuttingDown = true }, header: BusError(.badFrame, "x")) == "shutting_down")
        #expect(code({ $0.clientBacklog = 1 }, header: BusError(.badFrame, "header")) == "bad_frame")
        #expect(code { $0.clientBacklog = 2; $0.clientOpen = 3 } == "busy")
        let messages: [(inout RequestFacts) -> Void] = [
            { $0.clientBacklog = 1 }, { $0.clientOpen = 3 }, { $0.hostOpen = 5 },
            { $0.clientBytes = l.maxInFlightBytesPerClient - 5 }, { $0.hostBytes = l.maxInFlightBytes - 5 },
        ]
        let settings = messages.map { change -> String in
            var f = Self.fine
            change(&f)
            return admission.problem(f)?.message ?? "admitted"
        }
        for (message, setting) in zip(settings, ["not reading", "max_open_per_client", "max_open_exchanges",
                                                  "max_in_flight_bytes_per_client", "max_in_flight_bytes"]) {
            #expect(message.contains(setting), "\(message)")
        }
        #expect(code { $0.clientBytes = l.maxInFlightBytesPerClient - 10 } == nil, "exactly at the limit is admitted")
    }

    // The per-client byte limit at its smallest (64 KiB) and requests of 1,000 bytes, under
    // the lane's 1 KiB: 65 fit, the 66th does not, on either path.
    private static let host = ["limits:\n  max_in_flight_bytes_per_client: 65536\n  max_open_per_client: 200"]
    private static let body: JSON = ["s": .string(String(repeating: "a", count: 992))]  // 1,000 bytes

    /// Sends 66 requests for I (the first `viaCore` with a header the lane leaves to the
    /// core, of the same size) and returns the final answers the core wrote, by request id,
    /// and how many the lane took.
    private func run(lane: Bool, viaCore: Int = 0) throws -> (answers: [String: WireMessage], laneTook: Int) {
        let rig = try RelayLaneUnitTests.Rig(maxInFlight: 100, host: Self.host, lane: lane)
        var took = 0
        for i in 0..<66 {
            let header: JSON? = i < viaCore ? ["plugin": "alpha"] : nil
            let body: JSON = i < viaCore ? ["s": .string(String(repeating: "a", count: 975))] : Self.body
            if try rig.fromClient(.request, "r\(i)", header: header, body: body) { took += 1 }
        }
        var answers: [String: WireMessage] = [:]
        for sent in rig.h.take() where sent.to == "c1" { answers[sent.msg.requestId] = sent.msg }
        return (answers, took)
    }

    @Test("max_in_flight_bytes_per_client: the same 66 requests get the same busy on the lane and on the general path")
    func bothPathsObeyByteLimit() throws {
        let core = try run(lane: false)
        let fast = try run(lane: true)
        #expect(core.laneTook == 0 && fast.laneTook == 65, "the lane took \(fast.laneTook)")
        for answers in [core.answers, fast.answers] {
            #expect(answers.count == 1, "only the 66th is answered now: \(answers.keys.sorted())")
            let busy = try #require(answers["r65"])
            #expect(busy.kind == .error)
            #expect(try busy.bodyJSON()["code"] == "busy")
        }
        #expect(try core.answers["r65"]?.bodyJSON() == fast.answers["r65"]?.bodyJSON(), "the same error, word for word")
    }

    @Test("the lane counts the general path's bytes, and the general path the lane's")
    func pathsCountEachOther() throws {
        // One request in the core's table, then lane-eligible ones: the 66th is refused.
        let mixed = try run(lane: true, viaCore: 1)
        #expect(mixed.laneTook == 64)
        #expect(mixed.answers.keys.sorted() == ["r65"])
        #expect(try mixed.answers["r65"]?.bodyJSON()["code"] == "busy")
        // 65 in the lane, then one the core must route: refused too.
        let rig = try RelayLaneUnitTests.Rig(maxInFlight: 100, host: Self.host)
        for i in 0..<65 { #expect(try rig.fromClient(.request, "l\(i)", body: Self.body)) }
        #expect(try rig.fromClient(.request, "c", header: ["plugin": "alpha"], body: Self.body) == false)
        let answer = try #require(rig.h.take().last?.msg)
        #expect(answer.requestId == "c" && answer.kind == .error)
        #expect(try answer.bodyJSON()["code"] == "busy")
    }

    @Test("one authentication for restricted intents and new-style policies: credential, its absence, a keyed client without the right")
    func authentication() throws {
        func host(_ yaml: String) throws -> HostSettings {
            let text = "host:\n  state_dir: /nonexistent/admission/state\n" + yaml + "plugins: []\n"
            return try ManifestLoader.load(text: text, path: "/nonexistent/admission/plugins.yaml").host
        }
        let withCredential = Authentication(host: try host("  client_credential: s3cret\n"), clientKeysRequired: false)
        #expect(withCredential.check(["credential": "s3cret"]) == .authenticated)
        #expect(withCredential.check(["credential": "guess"]) == .credential(why: "the credential is wrong"))
        #expect(withCredential.check(.object([:])) == .credential(why: "the request carries no credential"))
        let without = Authentication(host: try host(""), clientKeysRequired: false)
        #expect(without.check(["credential": "s3cret"])
                == .credential(why: "no client credential is configured in the host (host.client_credential)"))
        // With client keys the grant decides; the shared credential counts for nothing.
        let keyed = Authentication(host: try host("  client_credential: s3cret\n"), clientKeysRequired: true)
        #expect(keyed.check(["credential": "s3cret"]) == .noRight(client: nil))
        #expect(keyed.check(["authenticated": "nobody"]) == .noRight(client: "nobody"))
        // Both users word it their own way from the one outcome.
        let policy = IntentAuthenticationPolicy.requiresAuthentication.problem(
            intent: "Pay", options: ["credential": "guess"],
            access: .init(host: withCredential.host, clientKeysRequired: false))
        #expect(policy?.code == .authenticationRequired && policy?.message.hasSuffix("the credential is wrong") == true)
    }
}
