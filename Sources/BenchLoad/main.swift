import Foundation
import IntentBus

// bench-load: one load process of the benchmark (docs/performance.md). intentbus-bench
// starts one or more of them and tells them, round by round, what to load; more than one
// gives the load generator more capacity, to show that it is not what limits a path.
// Usage: bench-load CONTROL-ENDPOINT NAME. Commands (one JSON frame each):
//   {"op":"round","endpoint":E,"intent":I,"size":N,"key":K,"window":W,"connections":C,
//    "count":N,"seconds":S,"echo":true,"curve":{server,public,secret}?}
//                                         → result JSON frame + samples frame
//   {"op":"close"}                        → drops every connection; answers {"closed":true}
//   {"op":"exit"}                         → exits 0
// It runs until told to exit or its parent dies (the driver starts it under setpriv).

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: bench-load CONTROL-ENDPOINT NAME\n".utf8))
    exit(64)
}

/// Connections are kept from round to round (the warm-up round opens them), per endpoint,
/// intent and count.
struct ConnectionKey: Hashable {
    let endpoint: String
    let intent: String
    let count: Int
    let curve: LoadCurveKeys?
}

func serve() throws {
    let context = LeanContext()
    let control = try ControlChannel(context: context, endpoint: arguments[1], name: arguments[2])
    var pools: [ConnectionKey: [LeanConnection]] = [:]
    var bodies: [String: LoadBody] = [:]
    try control.send(JSON.object(["ready": .string(arguments[2])]).canonicalString)
    while true {
        let command = (try? JSON.parse(try control.receive())) ?? .null
        switch command["op"]?.stringValue {
        case "round":
            guard let endpoint = command["endpoint"]?.stringValue, let intent = command["intent"]?.stringValue,
                  let size = command["size"]?.intValue, let window = command["window"]?.intValue,
                  let connections = command["connections"]?.intValue, let count = command["count"]?.intValue,
                  let seconds = command["seconds"]?.doubleValue, connections > 0, window >= connections else {
                try control.send(JSON.object(["error": .string("bad round command: \(command.canonicalString)")]).canonicalString)
                continue
            }
            let curve = LoadCurveKeys(command["curve"])
            let key = ConnectionKey(endpoint: endpoint, intent: intent, count: Int(connections), curve: curve)
            if pools[key] == nil {
                pools[key] = try (0..<Int(connections)).map { _ in
                    try LeanConnection(context: context, endpoint: endpoint, intent: intent, curve: curve)
                }
            }
            let bodyKey = "\(size)/\(command["key"]?.stringValue ?? "p")"
            let body = bodies[bodyKey] ?? LoadBody(size: Int(size), key: command["key"]?.stringValue ?? "p")
            bodies[bodyKey] = body
            let echo = command["echo"]?.boolValue ?? true
            let round = LoadRound(connections: pools[key]!, body: body, window: Int(window), count: Int(count),
                                  seconds: seconds, expectedBodySize: echo ? body.count : -1)
            let result = try round.run()
            try control.send(result.json.canonicalString, samples: result.samples)
        case "close":
            pools.removeAll()
            try control.send(JSON.object(["closed": true]).canonicalString)
        case "exit":
            return
        default:
            try control.send(JSON.object(["error": .string("unknown command: \(command.canonicalString)")]).canonicalString)
        }
    }
}

do {
    try serve()
    exit(0)
} catch {
    FileHandle.standardError.write(Data("bench-load: \(error)\n".utf8))
    exit(2)
}
