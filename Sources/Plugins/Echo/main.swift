import Foundation
import IntentBus

// The echo plugin: returns the request body unchanged. It uses the raw handler, which runs
// on the socket thread and moves the body frame back without copying or decoding it, so
// that the benchmark measures the host, not the plugin.
do {
    let runtime = try PluginRuntime()
    runtime.onRaw("EchoIntent") { _, _, _, body in body }
    runtime.run()
} catch {
    print("plugin-echo: \(error)")
    exit(2)
}
