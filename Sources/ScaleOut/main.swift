import Foundation
import IntentBus
import IntentBusProcess

// `make scale-out` (docs/scale-out.md, "The scale-out run"): three hosts side by side,
// four clients that know all of them, requests while hosts are SIGKILLed (by pid) and
// started again at random. It counts on the clients (every outcome) and on the plugins
// (TEST_RUN_LOG: what really ran) and ends with the line
//   N requests, N finals, 0 lost, 0 doubled, 0 acknowledged writes lost
// exiting 0 only when that is what happened. Bounded: --requests (default 10000) and
// --seconds (default 300), after which clients send nothing new.
//   --state URL   host.state for every host (the shared PostgreSQL of issue 31); without
//                 it each host keeps its own SQLite and writes are checked on the host
//                 that acknowledged them.
//   --postgres    the same on a PostgreSQL server the run starts itself (scripts/pg-temp.sh)
//                 and destroys at the end.
//   --remote      two remote plugins (RemotePlugins), each connected to all three hosts,
//                 instead of each host's spawned ones: "doubled" then also counts a resent
//                 idempotent request that ran twice on a plugin that stayed up.

func option(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: "--\(name)"), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func number(_ name: String, default value: Int, within range: ClosedRange<Int>) -> Int {
    guard let text = option(name) else { return value }
    guard let n = Int(text), range.contains(n) else {
        FileHandle.standardError.write(Data("scale-out: --\(name) takes a whole number within \(range), got \(text)\n".utf8))
        exit(2)
    }
    return n
}

/// The whole run; its exit status.
func run() -> Int32 {
    let total = number("requests", default: 10_000, within: 1...1_000_000)
    let seconds = number("seconds", default: 300, within: 1...3_600)
    let hostCount = 3
    let clientCount = 4
    let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    let work = NSTemporaryDirectory() + "ib-scale-\(getpid())"
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let database: TemporaryDatabase?
    do {
        database = CommandLine.arguments.contains("--postgres") ? try TemporaryDatabase(directory: "\(work)/pg", binaries: binaries) : nil
    } catch {
        print("scale-out: \(error)")
        return 1
    }
    defer { database?.destroy() }
    let stateURL = database?.url ?? option("state")
    let remote: RemotePlugins?
    let backends: [String]
    do {
        remote = CommandLine.arguments.contains("--remote")
            ? try RemotePlugins([("alpha", ["ScaleIdempotent", "ScaleChoice"]), ("beta", ["ScalePlain", "ScaleChoice"])]) : nil
        backends = try (0..<hostCount).map { _ in "tcp://127.0.0.1:\(try LoopbackPort.free())" }
    } catch {
        print("scale-out: \(error)")
        return 1
    }
    defer { remote?.stopAll() }

    /// Host `i`'s manifest: its own state directory, the others as peers, a test plugin for
    /// the intents the clients send (one idempotent) and a second claimant of ScaleChoice.
    func manifest(_ i: Int, frontends: [String]) -> String {
        let peers = frontends.enumerated().filter { $0.offset != i }.map(\.element).joined(separator: ", ")
        let plugin = "\(binaries)/plugin-testplugin"
        if let remote {
            return "host:\n  state_dir: \(work)/h\(i)\n  peers: [\(peers)]\n  backend: \(backends[i])\n"
                + (stateURL.map { "  state: \($0)\n" } ?? "") + "plugins:\n" + remote.manifestEntries
        }
        return """
        host:
          state_dir: \(work)/h\(i)
          peers: [\(peers)]
        \(stateURL.map { "  state: \($0)\n" } ?? "")plugins:
          - id: alpha
            exec: [\(plugin)]
            IntentsSupported: [ScaleIdempotent, ScalePlain, ScaleChoice]
            idempotent: [ScaleIdempotent]
            timeout: 10s
            env: {TEST_INTENTS: "ScaleIdempotent,ScalePlain,ScaleChoice", TEST_RUN_LOG: \(work)/runs-h\(i).log}
          - id: beta
            exec: [\(plugin)]
            IntentsSupported: [ScaleChoice]
            env: {TEST_INTENTS: ScaleChoice}

        """
    }

    let frontends = (0..<hostCount).map { "ipc://\(work)/h\($0)/frontend.sock" }
    let manifests = (0..<hostCount).map { i -> String in
        let path = "\(work)/h\(i).yaml"
        FileManager.default.createFile(atPath: path, contents: Data(manifest(i, frontends: frontends).utf8))
        return path
    }
    let hosts = HostProcesses(manifests: manifests, frontends: frontends, intentbus: "\(binaries)/intentbus")
    let tally = RunTally()
    let deadline = Date().addingTimeInterval(Double(seconds))
    let issued = Counter()
    let finished = Counter()
    let kills = Counter()

    do {
        for i in 0..<hostCount { try hosts.start(i) }
        if let remote {
            // Each host made its CURVE key at start (state_dir/host.pub); a restart keeps it.
            let keys = try (0..<hostCount).map { i -> String in
                guard let key = CurveKeyPair.readKey(path: "\(work)/h\(i)/host.pub") else { throw HarnessFailure("host \(i) has no host.pub") }
                return key
            }
            try remote.start(binary: "\(binaries)/plugin-testplugin", backends: backends, serverKeys: keys, work: work)
            try hosts.awaitPlugins(intents: ["ScaleIdempotent", "ScalePlain"])
        }
    } catch {
        hosts.stopAll()
        print("scale-out: \(error)")
        return 1
    }

    // The clients: each request idempotent or plain (tagged, so the plugins' log names it),
    // every tenth a remembered-choice write whose acknowledgement is recorded.
    let clientsDone = DispatchGroup()
    for c in 0..<clientCount {
        clientsDone.enter()
        Thread.detachNewThread {
            defer { clientsDone.leave() }
            guard let client = try? IntentClient(endpoints: frontends) else { return }
            client.selection = .roundRobin(penalty: .seconds(2))
            client.heartbeat = .milliseconds(500)
            var options = RequestOptions()
            options.timeout = .seconds(10)
            while Date() < deadline, let n = issued.next(upTo: total) {
                let tag = "c\(c)-\(n)"
                if n % 10 == 9 {
                    let write = "w-\(tag)"
                    let plugin = n % 20 == 9 ? "alpha" : "beta"
                    tally.sent(tag: tag, idempotent: false)
                    let outcome = Result { () throws(ClientError) -> IntentReply in
                        try client.send("ib.choices.set", parameters: ["intent": "ScaleChoice", "plugin": .string(plugin), "client": .string(write)],
                                        options: options) { _ in nil }
                    }
                    if case .success(let reply) = outcome { tally.acknowledged(client: write, plugin: plugin, host: reply.host) }
                    tally.ended(outcome, tag: tag)
                    continue
                }
                let idempotent = n % 2 == 0
                tally.sent(tag: tag, idempotent: idempotent)
                let outcome = Result { () throws(ClientError) -> IntentReply in
                    try client.send(idempotent ? "ScaleIdempotent" : "ScalePlain",
                                    parameters: ["tag": .string(tag), "sleep_ms": .int(Int64(n % 7 * 5))], options: options) { _ in nil }
                }
                tally.ended(outcome, tag: tag)
            }
        }
    }

    // The chaos: one host at a time SIGKILLed, then started again, until the clients are done.
    let chaosDone = DispatchSemaphore(value: 0)
    let stopChaos = Counter()
    Thread.detachNewThread {
        defer { chaosDone.signal() }
        while stopChaos.value == 0 {
            usleep(UInt32.random(in: 300_000...900_000))
            if stopChaos.value != 0 { break }
            let victim = Int.random(in: 0..<hostCount)
            hosts.kill(victim)
            _ = kills.next(upTo: Int.max)
            usleep(UInt32.random(in: 100_000...400_000))
            do { try hosts.start(victim) } catch { print("scale-out: \(error)"); break }
        }
    }
    clientsDone.wait()
    _ = stopChaos.next(upTo: 1)
    chaosDone.wait()

    // Acknowledged writes: present afterwards on the host that acknowledged them (every host
    // with shared state).
    var stored: [String: [String: String]] = [:]  // host → client → plugin
    for frontend in frontends {
        var seen: [String: String] = [:]
        var after: JSON = .null
        let client = try? IntentClient(endpoint: frontend)
        repeat {
            var ask: [String: JSON] = ["intent": "ScaleChoice", "limit": 1_000]
            if after != .null { ask["after"] = after }
            guard let page = try? client?.control("ib.choices.list", .object(ask), wait: .seconds(10)) else { break }
            for choice in page["choices"]?.arrayValue ?? [] {
                if let who = choice["client"]?.stringValue, let plugin = choice["plugin"]?.stringValue { seen[who] = plugin }
            }
            after = page["next"] ?? .null
        } while after != .null
        stored[frontend] = seen
    }
    let writesLost = tally.writes.filter { client, write in
        let where_ = stateURL == nil ? [write.host] : frontends
        return where_.contains { stored[$0]?[client] != write.plugin }
    }.count
    hosts.stopAll()

    // What ran, from the plugins' own log: a tag twice on one process ran twice on a plugin
    // that stayed up; a plain request's tag on two lines at all ran twice.
    var runs: [String: [String]] = [:]  // tag → pids
    let logs = remote.map { r in r.plugins.map { r.runLog($0.id, in: work) } } ?? (0..<hostCount).map { "\(work)/runs-h\($0).log" }
    for (i, log) in logs.enumerated() {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { runs[String(parts[1]), default: []].append("\(i):\(parts[0])") }
        }
    }
    let pluginsStayedUp = remote?.allRunning ?? true
    let doubled = runs.filter { tag, pids in Set(pids).count < pids.count || (tally.plainTags.contains(tag) && pids.count > 1) }.count

    print("plugin runs logged: \(runs.values.map(\.count).reduce(0, +)) of \(runs.count) tags; choices found: \(stored.values.map(\.count).reduce(0, +))")
    if let remote { print("remote plugins \(remote.plugins.map(\.id).joined(separator: ", ")) on all \(hostCount) hosts\(pluginsStayedUp ? ", up throughout" : ": one stopped"); state \(database != nil ? "on the run's own PostgreSQL" : stateURL ?? "in each host's SQLite")") }
    print("hosts SIGKILLed and restarted: \(kills.value); replies \(tally.replies), errors \(tally.errors), host_lost \(tally.hostLost), resent \(tally.resent); acknowledged writes \(tally.writes.count)")
    for line in tally.lost.prefix(5) { print("lost: \(line)") }
    for line in tally.errorSamples { print("error: \(line)") }
    print("\(tally.requests) requests, \(tally.finals) finals, \(tally.lost.count) lost, \(doubled) doubled, \(writesLost) acknowledged writes lost")
    // A run where no host was killed, or no write was acknowledged, proves nothing.
    let ok = tally.finals == tally.requests && tally.lost.isEmpty && doubled == 0 && writesLost == 0 && kills.value > 0
        && !tally.writes.isEmpty && pluginsStayedUp
    remote?.stopAll()
    database?.destroy()  // before the directory it lives in goes
    if ok { try? FileManager.default.removeItem(atPath: work) } else { print("kept for reading: \(work)") }
    return ok ? 0 : 1
}

exit(run())
