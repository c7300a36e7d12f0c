import Foundation
import IntentBus

// A plugin for the end-to-end tests. It handles the intents listed in TEST_INTENTS
// (comma-separated; default TestIntent) and behaves as the request asks:
//   {"sleep_ms": N}     answer after N ms (a CANCEL cancels the wait, and it says so on stdout)
//   {"crash": CODE}     exit with CODE at once, while holding whatever is in flight
//   {"ask": "param"}    ask the client for a value first and return it
//   {"confirm": true}   ask a yes/no question first
//   {"progress": N}     send N progress updates first
//   {"fail": true}      answer with status failure
//   {"reply_header": {…}} add these fields to the REPLY header (donations)
//   {"whoami": true}    add "pid" (this process) and "instance" ($INTENTBUS_INSTANCE, 0 if unset)
//   {"allocate_mb": N}  allocate and touch N MiB first, kept until the reply (memory_limit tests)
//   {"spin_ms": N}      burn CPU for N ms of wall-clock time first (cpu_limit tests)
//   {"tag": T}          with TEST_RUN_LOG set: logged as run (see runLog)
//   {"echo_header": true} add the delivery header to the reply ("header")
// Every reply says which plugin answered and echoes the parameters.
// TEST_SYNC=1 registers a synchronous handler instead (no sleep_ms, ask or confirm;
// {"throw": "code"} throws a BusError). TEST_BAD_TOKEN=1 makes it present a wrong token; TEST_EXIT_AT_START=CODE makes it exit
// before connecting; TEST_SOCKET_THREAD=1 runs its handlers on the socket thread,
// TEST_GLOBAL_EXECUTOR=1 as tasks on the global executor.
let env = ProcessInfo.processInfo.environment
/// TEST_RUN_LOG=PATH: one line "PID TAG" per request with a `tag` parameter, appended as
/// the handler starts (one write(2) on an O_APPEND descriptor, whole with several writers),
/// so that a harness counts what really ran (make scale-out). Set here, before `run()`,
/// which never returns: a global declared below it would never be initialized.
let runLog: Int32? = env["TEST_RUN_LOG"].map { open($0, O_WRONLY | O_APPEND | O_CREAT, 0o600) }
if let code = env["TEST_EXIT_AT_START"].flatMap(Int32.init) { exit(code) }
var runtimeEnv = env
if env["TEST_BAD_TOKEN"] == "1" { runtimeEnv["INTENTBUS_TOKEN"] = "not-the-token" }

do {
    let runtime = try PluginRuntime(environment: runtimeEnv)
    runtime.runsHandlersOnSocketThread = env["TEST_SOCKET_THREAD"] == "1"
    if env["TEST_GLOBAL_EXECUTOR"] == "1" { runtime.handlerThreads = .globalExecutor }
    let id = runtime.pluginId
    let intents = (env["TEST_INTENTS"] ?? "TestIntent").split(separator: ",").map(String.init)
    for intent in intents {
        if env["TEST_SYNC"] == "1" {
            // A synchronous handler (no `await`): the SDK runs it in the turn that received
            // the request. {"throw": "code"} throws a BusError with that code.
            runtime.on(intent) { request, context in
                let ballast = prepare(request, context)
                defer { _ = ballast.count }
                if let code = request.parameters["throw"]?.stringValue {
                    throw BusError(ErrorCode(rawValue: code) ?? .pluginError, "the handler threw \(code)")
                }
                return reply(request, base(request, id: id))
            }
            continue
        }
        runtime.on(intent) { request, context in
            let p = request.parameters
            let ballast = prepare(request, context)
            defer { _ = ballast.count }
            if let ms = p["sleep_ms"]?.intValue {
                do { try await Task.sleep(for: .milliseconds(ms)) } catch is CancellationError {
                    FileHandle.standardError.write(Data("handler for \(request.id) saw its task cancelled\n".utf8))
                    throw CancellationError()
                }
            }
            var out = base(request, id: id)
            if let param = p["ask"]?.stringValue {
                out["answer"] = try await context.prompt(["kind": "value", "parameter": .string(param),
                                                          "dialog": .string("What is \(param)?"), "type": "String"])
            }
            if p["confirm"]?.boolValue == true {
                out["confirmed"] = try await context.prompt(["kind": "confirmation", "dialog": "Really?"])
            }
            return reply(request, out)
        }
    }
    runtime.run()
} catch {
    print("plugin-testplugin: \(error)")
    exit(2)
}

/// What either handler does first: crash, progress, memory, CPU. Returns the ballast.
func prepare(_ request: PluginRequest, _ context: PluginContext) -> [UInt8] {
    let p = request.parameters
    if let runLog, runLog >= 0, let tag = p["tag"]?.stringValue {
        let line = Array("\(getpid()) \(tag)\n".utf8)
        _ = line.withUnsafeBytes { write(runLog, $0.baseAddress, $0.count) }
    }
    if let code = p["crash"]?.intValue { exit(Int32(code)) }
    if let n = p["progress"]?.intValue {
        for i in 1...max(1, Int(n)) {
            context.progress("step \(i) of \(n)", fraction: Double(i) / Double(n))
        }
    }
    var ballast: [UInt8] = []
    if let mb = p["allocate_mb"]?.intValue, mb > 0, mb <= 4_096 {
        ballast = [UInt8](repeating: 1, count: Int(mb) << 20)
    }
    if let ms = p["spin_ms"]?.intValue, ms > 0 {
        let end = Date().addingTimeInterval(Double(ms) / 1_000)
        var x: UInt64 = 1
        while Date() < end { for _ in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 } }
        if x == 42 { print("") }
    }
    return ballast
}

/// The reply body's common part: who answered, the intent, the parameters.
func base(_ request: PluginRequest, id: String) -> [String: JSON] {
    var out: [String: JSON] = ["plugin": .string(id), "intent": .string(request.intent), "params": request.parameters]
    if request.parameters["echo_header"]?.boolValue == true { out["header"] = request.header }
    return out
}

/// The reply: the body with the client and `whoami` fields, the status and header asked for.
func reply(_ request: PluginRequest, _ body: [String: JSON]) -> PluginReply {
    let p = request.parameters
    var out = body
    if let client = request.client { out["client"] = .string(client) }
    if p["whoami"]?.boolValue == true {
        out["pid"] = .int(Int64(getpid()))
        out["instance"] = .int(Int64(env["INTENTBUS_INSTANCE"].flatMap(Int.init) ?? 0))
    }
    return PluginReply(status: p["fail"]?.boolValue == true ? .failure : .success, body: .object(out),
                       header: p["reply_header"]?.objectValue ?? [:])
}
