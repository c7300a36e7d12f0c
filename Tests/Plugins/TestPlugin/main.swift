import Foundation
import IntentBus

// A plugin for the end-to-end tests. It handles the intents listed in TEST_INTENTS
// (comma-separated; default TestIntent) and behaves as the request asks:
//   {"sleep_ms": N}     answer after N ms
//   {"crash": CODE}     exit with CODE at once, while holding whatever is in flight
//   {"ask": "param"}    ask the client for a value first and return it
//   {"confirm": true}   ask a yes/no question first
//   {"progress": N}     send N progress updates first
//   {"fail": true}      answer with status failure
// Every reply says which plugin answered and echoes the parameters.
// TEST_BAD_TOKEN=1 makes it present a wrong token; TEST_EXIT_AT_START=CODE makes it exit
// before connecting.
let env = ProcessInfo.processInfo.environment
if let code = env["TEST_EXIT_AT_START"].flatMap(Int32.init) { exit(code) }
var runtimeEnv = env
if env["TEST_BAD_TOKEN"] == "1" { runtimeEnv["INTENTBUS_TOKEN"] = "not-the-token" }

do {
    let runtime = try PluginRuntime(environment: runtimeEnv)
    let id = runtime.pluginId
    let intents = (env["TEST_INTENTS"] ?? "TestIntent").split(separator: ",").map(String.init)
    for intent in intents {
        runtime.on(intent) { request, context in
            let p = request.parameters
            if let code = p["crash"]?.intValue { exit(Int32(code)) }
            if let n = p["progress"]?.intValue {
                for i in 1...max(1, Int(n)) {
                    context.progress("step \(i) of \(n)", fraction: Double(i) / Double(n))
                }
            }
            if let ms = p["sleep_ms"]?.intValue { try await Task.sleep(for: .milliseconds(ms)) }
            var out: [String: JSON] = ["plugin": .string(id), "intent": .string(request.intent), "params": p]
            if let param = p["ask"]?.stringValue {
                out["answer"] = try await context.prompt(["kind": "value", "parameter": .string(param),
                                                          "dialog": .string("What is \(param)?"), "type": "String"])
            }
            if p["confirm"]?.boolValue == true {
                out["confirmed"] = try await context.prompt(["kind": "confirmation", "dialog": "Really?"])
            }
            if let client = request.client { out["client"] = .string(client) }
            return p["fail"]?.boolValue == true ? .failure(.object(out)) : .success(.object(out))
        }
    }
    runtime.run()
} catch {
    print("plugin-testplugin: \(error)")
    exit(2)
}
