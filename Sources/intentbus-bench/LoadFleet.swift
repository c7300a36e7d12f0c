import Foundation
import IntentBus

/// What the load processes saw in one round, merged.
struct FleetRound {
    var counts = ReplyCounts()
    /// The longest of the processes' rounds (first send to last answer), in seconds.
    var seconds = 0.0
    /// The load processes' CPU, every thread, in seconds.
    var cpuSeconds = 0.0
    /// Every REPLY's round trip, in ns.
    var samples: [UInt64] = []
    var processes = 0
}

/// The load generator for throughput: `bench-load` processes (Sources/BenchLoad), started
/// once and told round by round what to load over a control socket. Each is lean (no
/// allocation per message on its side); starting the round on two of them instead of one,
/// with the same total in flight, doubles the generator's capacity, which is how the
/// benchmark shows that the generator is not what limits a path.
///
/// Threading: owned by the benchmark's main thread.
final class LoadFleet {
    private let control: ZMQSocket
    private let names: [String]
    let children: [BenchChild]

    /// Starts `processes` load processes (`executable`, through `registry`; their
    /// control socket and logs in `dir`) and waits until each has reported in.
    init(directory dir: String, context: ZMQContext, registry: ChildRegistry, executable: String, processes: Int) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let endpoint = "ipc://\(dir)/control.sock"
        control = try ZMQSocket(context, .router)
        try control.setRouterMandatory()
        try control.bind(endpoint)
        try control.setReceiveTimeout(milliseconds: 30_000)
        names = (0..<processes).map { "load-\($0)" }
        children = try names.map { name in
            try registry.spawn(executable, [endpoint, name], label: name, logPath: "\(dir)/\(name).log")
        }
        var ready = Set<String>()
        while ready.count < processes {
            guard let frames = try control.receive() else {
                throw BenchFailure("the load processes did not report in within 30 s; see \(dir)")
            }
            ready.insert(frames[0].string)
        }
    }

    var pids: [pid_t] { children.map(\.pid) }

    /// Runs one round on the first `processes` load processes at once, the window, the
    /// connections and the count split evenly between them (the first ones take the
    /// remainder). Every process needs at least one connection and one request in flight.
    func round(processes: Int, endpoint: String, intent: String, size: Int, key: String = "p", window: Int,
               connections: Int, count: Int, seconds: Double, echo: Bool = true,
               curve: BenchCurve? = nil) throws -> FleetRound {
        precondition(processes >= 1 && processes <= names.count && connections >= processes && window >= connections)
        func share(_ total: Int, _ i: Int) -> Int { total / processes + (i < total % processes ? 1 : 0) }
        for i in 0..<processes {
            var command: [String: JSON] = [
                "op": "round", "endpoint": .string(endpoint), "intent": .string(intent), "size": .int(Int64(size)),
                "key": .string(key), "window": .int(Int64(share(window, i))),
                "connections": .int(Int64(share(connections, i))), "count": .int(Int64(share(count, i))),
                "seconds": .double(seconds), "echo": .bool(echo),
            ]
            if let curve { command["curve"] = curve.json }
            try control.send(to: Data(names[i].utf8), [Frame(JSON.object(command).canonicalString)])
        }
        var merged = FleetRound(processes: processes)
        var answered = 0
        while answered < processes {
            guard let frames = try control.receive(), frames.count >= 2 else {
                throw BenchFailure("a load process did not finish its round within 30 s; see \(children.first.map { _ in "the load logs" } ?? "")")
            }
            let result = try JSON.parse(frames[1].data)
            if let error = result["error"]?.stringValue { throw BenchFailure("load process \(frames[0].string): \(error)") }
            func int(_ key: String) -> Int { Int(result[key]?.intValue ?? 0) }
            merged.counts.add(ReplyCounts(sent: int("sent"), ok: int("ok"), busy: int("busy"), otherErrors: int("other"),
                                          firstError: result["first_error"]?.stringValue))
            merged.seconds = max(merged.seconds, Double(int("elapsed_ns")) / 1e9)
            merged.cpuSeconds += Double(int("cpu_ns")) / 1e9
            if frames.count >= 3 {
                frames[2].withBytes { raw in
                    merged.samples += raw.bindMemory(to: UInt32.self).map { UInt64($0) }
                }
            }
            answered += 1
        }
        return merged
    }

    /// Closes every connection the load processes hold (before a path stops).
    func closeConnections() throws {
        for name in names { try control.send(to: Data(name.utf8), [Frame(#"{"op":"close"}"#)]) }
        for _ in names { _ = try control.receive() }
    }
}
