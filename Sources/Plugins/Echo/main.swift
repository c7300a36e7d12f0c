import Foundation
import IntentBus

// The echo plugin: returns the request's parameters unchanged.
//
// By default it uses an ordinary handler, so the SDK refuses a parameters body that is not
// a JSON object (ERROR invalid_parameters) before the handler runs, as for every plugin.
//
// `plugin-echo --raw` uses the raw handler instead, for the benchmark's own rows: it runs on
// the socket thread and moves the body frame back without copying or decoding it. A raw
// handler sees the body unchecked (any bytes the client sent); that is its contract
// (docs/plugin-guide.md). `make bench` runs the ordinary handler, as users write it.
//
// `plugin-echo --log-requests` (the demo manifest's) logs one line per request, so that
// `intentbus logs echo` shows what it was asked; the benchmark runs it without.
do {
    let runtime = try PluginRuntime()
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.contains("--raw") {
        runtime.onRaw("EchoIntent") { _, _, _, body in body }
    } else if !arguments.contains("--log-requests") {
        runtime.on("EchoIntent") { request, _ in .success(request.parameters) }
    } else {
        let logger = runtime.logger
        runtime.on("EchoIntent") { request, _ in
            let keys = (request.parameters.objectValue ?? [:]).keys.sorted()
            logger.info("echoing \(keys.count) parameter\(keys.count == 1 ? "" : "s")\(keys.isEmpty ? "" : ": " + keys.joined(separator: ", ")) (request \(request.id))")
            return .success(request.parameters)
        }
    }
    runtime.run()
} catch {
    print("plugin-echo: \(error)")
    exit(2)
}
