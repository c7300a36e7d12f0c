import Foundation
import IntentBus

// A raw echo plugin for the benchmark's scale scenario: like plugin-echo, but it claims
// every intent named in BENCH_INTENTS (comma-separated), so that ten running copies can
// serve a manifest that declares a thousand intents.
do {
    let runtime = try PluginRuntime()
    let intents = (ProcessInfo.processInfo.environment["BENCH_INTENTS"] ?? "EchoIntent")
        .split(separator: ",").map(String.init)
    for intent in intents {
        runtime.onRaw(intent) { _, _, _, body in body }
    }
    runtime.run()
} catch {
    FileHandle.standardError.write(Data("bench-plugin: \(error)\n".utf8))
    exit(2)
}
