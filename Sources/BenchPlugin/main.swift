import Foundation
import IntentBus

// The benchmark's plugin (docs/performance.md).
// - Raw echo handlers for every intent named in BENCH_INTENTS (comma-separated), like
//   plugin-echo, so that ten running copies can serve a manifest of a thousand intents.
// - With BENCH_STYLES=1, also the legacy-cost scenario's three intents, each doing the least
//   its style allows, so that what is measured is the flow and not the handler:
//     PlainEchoIntent     the SDK's ordinary plain handler, as plugin-echo without --raw
//                         (`runtime.on(intent) { request, _ in .success(request.parameters) }`):
//                         the "plain" that issue 30's perform and legacy goals compare with
//     BenchLegacyIntent   legacy: resolve `text` as given, no confirm, handle with success
//                         (its definition is written by intentbus-bench: Bench+Styles.swift);
//                         one plugin round trip (`run`, docs/protocol.md §8.9), or with
//                         BENCH_LEGACY_PHASED=1 announced without phases, as an SDK before
//                         one-trip did: three (resolve, confirm, handle), for comparison
//     BenchPerformIntent  new style: perform() returns `text` as the dialog
// - With BENCH_SOCKET_THREAD=1, runsHandlersOnSocketThread: its handlers run on the socket
//   thread with no watcher to hand the loop over (the default runs them there too, watched).

struct BenchLegacyHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success }

    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        .success(intent[parameter] ?? .null)
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        LegacyResponse(.success, ["text": .string(intent.string("text") ?? "")])
    }
}

struct BenchPerformIntent: AppIntent {
    static let title: LocalizedStringResource = "Benchmark a perform"

    @Parameter(title: "Text") var text: String

    func perform() async throws -> some IntentResult {
        .result(dialog: "\(text)")
    }
}

do {
    let environment = ProcessInfo.processInfo.environment
    let plugin = try IntentPlugin()
    // BENCH_SOCKET_THREAD=1: handlers on the socket thread with no watcher (every handler
    // here answers at once, which is what that setting is for).
    plugin.runtime.runsHandlersOnSocketThread = environment["BENCH_SOCKET_THREAD"] == "1"
    // BENCH_PACKED_LINK=0: the six-frame plugin link (the bench's comparison).
    plugin.runtime.asksPackedLink = environment["BENCH_PACKED_LINK"] != "0"
    for intent in (environment["BENCH_INTENTS"] ?? "EchoIntent").split(separator: ",").map(String.init) {
        plugin.runtime.onRaw(intent) { _, _, _, body in body }
    }
    if environment["BENCH_STYLES"] == "1" {
        plugin.runtime.on("PlainEchoIntent") { request, _ in .success(request.parameters) }
        if environment["BENCH_LEGACY_PHASED"] == "1" {
            let logger = plugin.runtime.logger, warnings = LegacyCodeWarnings()
            plugin.runtime.on("BenchLegacyIntent", style: .legacy) { request, context in
                try await LegacyPhases.serve(request, context, handlerFor: { _ in BenchLegacyHandler() }, logger: logger, warnings: warnings)
            }
        } else {
            plugin.runtime.onLegacy(["BenchLegacyIntent"]) { _ in BenchLegacyHandler() }
        }
        plugin.register(BenchPerformIntent.self)
    }
    plugin.run()
} catch {
    FileHandle.standardError.write(Data("bench-plugin: \(error)\n".utf8))
    exit(2)
}
