import Foundation
import IntentBus
@testable import PluginHost
import Testing

/// The Majordomo worker side (RFC 7) on its own: commands in, frames out, a clock the
/// test moves; and the MDP codec. No socket.
@Suite("Majordomo broker")
struct MajordomoBrokerTests {
    final class Recorder: MajordomoBrokerOutput {
        var clock: UInt64 = 1_000_000_000
        var toWorkers: [(worker: String, frames: [Data])] = []
        var toCore: [WireMessage] = []
        var attached: [Int] = []
        var detached: [Int] = []
        func sendToWorker(_ identity: Data, _ frames: [Frame]) {
            toWorkers.append((String(decoding: identity, as: UTF8.self), frames.map(\.data)))
        }
        func toCore(slot: Int, _ msg: WireMessage) { toCore.append(msg) }
        func attach(slot: Int) { attached.append(slot) }
        func detach(slot: Int) { detached.append(slot) }
        func now() -> UInt64 { clock }

        /// The command byte of each message to `worker`, and REQUESTs' client addresses.
        func commands(to worker: String) -> [String] {
            toWorkers.filter { $0.worker == worker }.map { sent in
                switch sent.frames[2].first {
                case 2: "REQUEST \(String(decoding: sent.frames[3], as: UTF8.self))"
                case 4: "HEARTBEAT"
                case 5: "DISCONNECT"
                default: "?"
                }
            }
        }
    }

    private static let identities = MajordomoIdentity()
    private let bodies = MajordomoFrames(identities: Self.identities)

    private func broker(heartbeatMs: Int = 100) throws -> (MajordomoBroker, Recorder) {
        let yaml = """
        host:
          state_dir: /nonexistent/mdp-test/state
          mdp: ipc:///nonexistent/mdp-test/mdp.sock
          mdp_heartbeat: \(heartbeatMs)ms
        plugins:
          - id: plain
            exec: /bin/true
            IntentsSupported: [PlainIntent]
          - id: weather
            mdp_worker: true
            IntentsSupported: [WeatherIntent, RainIntent]
        """
        let manifest = try ManifestLoader.load(text: yaml, path: "/nonexistent/mdp-test/plugins.yaml")
        let recorder = Recorder()
        let broker = MajordomoBroker(manifest: manifest, settings: try #require(manifest.host.mdp),
                                     logger: Logger(label: "mdp", minimumLevel: .error) { _ in }, bodies: bodies, output: recorder)
        return (broker, recorder)
    }

    private func request(_ id: String, _ intent: String = "WeatherIntent", body: String = "{}") -> WireMessage {
        WireMessage(kind: .request, requestId: id, intent: intent, header: Frame(), body: Frame(body))
    }

    private func reply(_ address: String, _ body: String = #"{"ok":true}"#) -> MajordomoMessage {
        .reply(address: address, body: [Frame(body)])
    }

    @Test("READY for a listed service attaches its entry; any other service gets DISCONNECT")
    func readyAndRefused() throws {
        let (b, r) = try broker()
        b.workerMessage(Data("w1".utf8), .ready(service: "WeatherIntent"))
        #expect(r.attached == [1])
        #expect(b.workerCount("WeatherIntent") == 1)
        b.workerMessage(Data("w2".utf8), .ready(service: "PlainIntent"))
        b.workerMessage(Data("w3".utf8), .ready(service: "Nothing"))
        #expect(r.commands(to: "w2") == ["DISCONNECT"] && r.commands(to: "w3") == ["DISCONNECT"])
        // A second READY is valid but unexpected: DISCONNECT, and the worker is forgotten.
        b.workerMessage(Data("w1".utf8), .ready(service: "WeatherIntent"))
        #expect(r.commands(to: "w1") == ["DISCONNECT"])
        #expect(b.workerCount("WeatherIntent") == 0 && r.detached == [1])
        // Commands from a worker that is not ready: DISCONNECT.
        b.workerMessage(Data("w9".utf8), .heartbeat)
        b.workerMessage(Data("w9".utf8), reply("x"))
        #expect(r.commands(to: "w9") == ["DISCONNECT", "DISCONNECT"])
    }

    @Test("requests go to the worker idle longest, and wait while none is idle")
    func loadSpreadAndQueue() throws {
        let (b, r) = try broker()
        b.fromCore(slot: 1, request("q1"))  // no worker yet: queued
        #expect(r.toWorkers.isEmpty)
        b.workerMessage(Data("a".utf8), .ready(service: "WeatherIntent"))
        b.workerMessage(Data("b".utf8), .ready(service: "WeatherIntent"))
        #expect(r.commands(to: "a") == ["REQUEST q1"])
        b.fromCore(slot: 1, request("q2"))
        #expect(r.commands(to: "b") == ["REQUEST q2"])
        b.fromCore(slot: 1, request("q3"))  // both busy
        b.workerMessage(Data("a".utf8), reply("q1"))
        #expect(r.commands(to: "a") == ["REQUEST q1", "REQUEST q3"])
        b.workerMessage(Data("b".utf8), reply("q2"))
        b.workerMessage(Data("a".utf8), reply("q3"))
        b.fromCore(slot: 1, request("q4"))  // b has been idle longer than a
        #expect(r.commands(to: "b") == ["REQUEST q2", "REQUEST q4"])
        #expect(r.toCore.map(\.requestId) == ["q1", "q2", "q3"])
        #expect(r.toCore.allSatisfy { $0.kind == .reply })
        #expect(try r.toCore[0].headerJSON() == ["plugin": "weather", "status": "success"])
    }

    @Test("from an MDP client (a packed body) the worker gets the client's frames, and the client the worker's")
    func opaqueBodies() throws {
        let (b, r) = try broker()
        b.workerMessage(Data("a".utf8), .ready(service: "WeatherIntent"))
        let sent = [Data("Hello world".utf8), Data(), Data([0, 0xFF])]
        for (i, frames) in [[sent[0]], sent, []].enumerated() {
            b.fromCore(slot: 1, WireMessage(kind: .request, requestId: "q\(i)", intent: "WeatherIntent", header: Frame(),
                                            body: bodies.pack(frames.map { Frame(data: $0) })))
            #expect(Array(r.toWorkers.last!.frames.dropFirst(5)) == frames)
            b.workerMessage(Data("a".utf8), .reply(address: "q\(i)", body: frames.reversed().map { Frame(data: $0) }))
            let back = try #require(r.toCore.last)
            #expect(back.kind == .reply && bodies.unpack(back.body)?.map(\.data) == frames.reversed())
        }
        // A body that only looks packed (another host's marker, a cut one) is one frame.
        #expect(MajordomoFrames(identities: MajordomoIdentity()).unpack(bodies.pack([Frame("x")])) == nil)
        let cut = bodies.pack([Frame("abc")]).data.dropLast()
        #expect(bodies.unpack(Frame(data: Data(cut))) == nil)
    }

    @Test("refused READYs of one service: the first DISCONNECT at once, the next ones paced")
    func pacedRefusals() throws {
        let (b, r) = try broker()
        b.workerMessage(Data("x1".utf8), .ready(service: "Nothing"))
        #expect(r.commands(to: "x1") == ["DISCONNECT"])
        b.workerMessage(Data("x2".utf8), .ready(service: "Nothing"))
        b.workerMessage(Data("x2".utf8), .heartbeat)  // ignored while it waits
        #expect(r.commands(to: "x2").isEmpty)
        r.clock += MajordomoRefusals.firstDelay
        b.fireDue()
        #expect(r.commands(to: "x2") == ["DISCONNECT"])
        b.workerMessage(Data("x3".utf8), .ready(service: "Nothing"))
        r.clock += MajordomoRefusals.firstDelay
        b.fireDue()
        #expect(r.commands(to: "x3").isEmpty)  // twice as long now
        r.clock += MajordomoRefusals.firstDelay
        b.fireDue()
        #expect(r.commands(to: "x3") == ["DISCONNECT"] && b.refusals.refused == 3)
        // Quiet for a minute: at once again.
        r.clock += MajordomoRefusals.quiet + 1
        b.workerMessage(Data("x4".utf8), .ready(service: "Nothing"))
        #expect(r.commands(to: "x4") == ["DISCONNECT"])
    }

    @Test("a reply is one frame of JSON; anything else ends the request with plugin_error")
    func replyBodies() throws {
        let (b, r) = try broker()
        b.workerMessage(Data("a".utf8), .ready(service: "WeatherIntent"))
        for (i, body) in [[Frame("not json")], [Frame("{}"), Frame("{}")], []].enumerated() {
            b.fromCore(slot: 1, request("q\(i)"))
            b.workerMessage(Data("a".utf8), .reply(address: "q\(i)", body: body))
        }
        #expect(r.toCore.map(\.kind) == [.error, .error, .reply])
        #expect(BusError(json: try r.toCore[0].bodyJSON()).code == .pluginError)
        // A REPLY for a request the worker does not hold is a protocol error.
        b.workerMessage(Data("a".utf8), reply("q0"))
        #expect(r.commands(to: "a").last == "DISCONNECT")
    }

    @Test("a worker leaving mid-request ends that request with an ERROR; a cancelled one is dropped")
    func leavingAndCancelled() throws {
        let (b, r) = try broker()
        b.workerMessage(Data("a".utf8), .ready(service: "WeatherIntent"))
        b.fromCore(slot: 1, request("q1"))
        b.workerMessage(Data("a".utf8), .disconnect)
        #expect(r.toCore.count == 1 && r.toCore[0].kind == .error && r.toCore[0].requestId == "q1")
        #expect(BusError(json: try r.toCore[0].bodyJSON()).code == .pluginUnavailable)
        #expect(r.commands(to: "a") == ["REQUEST q1"])  // no DISCONNECT back to a leaving worker
        // Cancelled in flight: the late reply is dropped and the worker serves again.
        b.workerMessage(Data("b".utf8), .ready(service: "WeatherIntent"))
        b.fromCore(slot: 1, request("q2"))
        b.fromCore(slot: 1, WireMessage(kind: .cancel, requestId: "q2", intent: "WeatherIntent", header: nil, body: nil))
        b.workerMessage(Data("b".utf8), reply("q2"))
        #expect(r.toCore.count == 1)
        // Cancelled while queued: never delivered.
        b.fromCore(slot: 1, request("q3", "RainIntent"))
        b.fromCore(slot: 1, WireMessage(kind: .cancel, requestId: "q3", intent: "RainIntent", header: nil, body: nil))
        b.workerMessage(Data("c".utf8), .ready(service: "RainIntent"))
        #expect(r.commands(to: "c").isEmpty)
    }

    @Test("heartbeats: every interval to each worker; an idle worker silent for 3 is dead, a busy one is not")
    func heartbeatsAndExpiry() throws {
        let (b, r) = try broker(heartbeatMs: 100)
        b.workerMessage(Data("idle".utf8), .ready(service: "WeatherIntent"))
        b.workerMessage(Data("busy".utf8), .ready(service: "RainIntent"))
        b.fromCore(slot: 1, request("q1", "RainIntent"))
        func advance(_ ms: UInt64) {
            for _ in 0..<(ms / 10) {
                r.clock += 10_000_000
                b.fireDue()
            }
        }
        advance(200)
        #expect(r.commands(to: "idle") == ["HEARTBEAT", "HEARTBEAT"])
        advance(200)
        #expect(b.workerCount("WeatherIntent") == 0)  // silent 300+ ms: expired, told nothing
        #expect(r.commands(to: "idle").allSatisfy { $0 == "HEARTBEAT" })
        #expect(b.workerCount("RainIntent") == 1)  // busy: its request's deadline decides
        // The core's deadline ends the request: from then on the silent worker expires.
        b.fromCore(slot: 1, WireMessage(kind: .cancel, requestId: "q1", intent: "RainIntent", header: nil, body: nil))
        advance(100)
        #expect(b.workerCount("RainIntent") == 0)
        #expect(r.detached == [1] && r.toCore.isEmpty)
        #expect(b.nextDeadline == nil)
    }

    @Test("the codec reads RFC 7 frames and refuses what is not")
    func codec() throws {
        func parse(_ frames: [String]) throws(MajordomoFrameError) -> MajordomoMessage {
            try MajordomoMessage.parse(frames.map { Frame($0) }[...])
        }
        guard case .request(let service, let body) = try parse(["", "MDPC01", "Echo", "{}"]) else { throw Failure() }
        #expect(service.string == "Echo" && body.count == 1)
        guard case .ready(let name) = try parse(["", "MDPW01", "\u{1}", "Echo"]) else { throw Failure() }
        #expect(name == "Echo")
        guard case .reply(let address, let replyBody) = try parse(["", "MDPW01", "\u{3}", "h1", "", "a", "b"]) else { throw Failure() }
        #expect(address == "h1" && replyBody.count == 2)
        guard case .heartbeat = try parse(["", "MDPW01", "\u{4}"]) else { throw Failure() }
        guard case .disconnect = try parse(["", "MDPW01", "\u{5}"]) else { throw Failure() }
        for bad in [["x"], ["", "MDPX01"], ["", "MDPC01"], ["", "MDPW01", "\u{2}", "a", "", "b"], ["", "MDPW01", "\u{9}"],
                    ["", "MDPW01", "\u{1}"], ["", "MDPW01", "\u{1}", ""], ["", "MDPW01", "\u{3}", "a", "x"], ["", "MDPW01", "ab"]] {
            #expect(throws: MajordomoFrameError.self) { try parse(bad) }
        }
        let out = MajordomoMessage.workerRequest(address: "h1", body: [Frame("{}")]).map(\.string)
        #expect(out == ["", "MDPW01", "\u{2}", "h1", "", "{}"])
        #expect(MajordomoMessage.clientReply(service: Data("S".utf8), body: Data("200".utf8)).map(\.string) == ["", "MDPC01", "S", "200"])
    }

    struct Failure: Error {}
}
