import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusLegacy

/// Runs an Intents extension as a plugin: the generated `INExtensionMain(_:)` calls
/// `serve` with the extension class and the intents of the target's definition.
public enum INExtensionRuntime {
    /// How long a handler may take to call its completion: `INTENTS_COMPLETION_TIMEOUT`
    /// seconds (1…3600), 30 by default; set it below the manifest entry's `timeout`, so
    /// that the plugin's clear error arrives before the host gives up.
    static func completionTimeout(_ environment: [String: String]) -> Duration {
        guard let text = environment["INTENTS_COMPLETION_TIMEOUT"], let seconds = Double(text),
              seconds >= 0.05, seconds <= 3600 else { return .seconds(30) }
        return .milliseconds(Int(seconds * 1000))
    }

    /// The standard intents an extension may handle with Apple's classes, beside its own.
    static let standardIntents: [any INIntentDispatching.Type] = [INSendMessageIntentDispatch.self, INStartWorkoutIntentDispatch.self,
                                                                  INSearchForPhotosIntentDispatch.self, INRequestRideIntentDispatch.self]

    /// Serves every intent in `intents`, and every standard one, whose handler the
    /// extension provides; never returns.
    public static func serve(_ extensionType: INExtension.Type, intents: [any INIntentDispatching.Type]) -> Never {
        let runtime: PluginRuntime
        do { runtime = try PluginRuntime() } catch {
            FileHandle.standardError.write(Data("\(extensionType): \(error)\n".utf8))
            exit(2)
        }
        register(extensionType, intents: intents, on: runtime)
        runtime.run()
    }

    /// Registers the extension's handlers on a runtime that serves more than the extension:
    /// a plugin that moves to App Intents one intent at a time keeps its SiriKit extension
    /// beside its `AppIntent`s (Sources/Plugins/Cart). `intents` is the generated
    /// `INGeneratedDefinition.intents`. Call before `run()`.
    public static func register(_ extensionType: INExtension.Type, intents: [any INIntentDispatching.Type], on runtime: PluginRuntime) {
        let intents = intents + standardIntents.filter { standard in !intents.contains { $0.intentName == standard.intentName } }
        let provider = INExtensionBox(extensionType.init())
        let timeout = completionTimeout(ProcessInfo.processInfo.environment)
        let logger = runtime.logger
        let warnings = LegacyCodeWarnings()
        for dispatch in intents {
            let adapter = INHandlerAdapter(dispatch: dispatch, provider: provider, timeout: timeout, logger: logger)
            guard dispatch.isHandler(provider.value.handler(for: dispatch.makeIntent(INValueStore()))) else {
                // An extension handles the intents its handlers conform to, often not all of a definition's.
                logger.info("handler(for: \(dispatch.intentName)) does not conform to \(dispatch.intentName)Handling: \(dispatch.intentName) is not announced")
                continue
            }
            INRegisteredIntents.shared.add(dispatch)
            runtime.announce(dispatch.intentName, phases: LegacyPhase.served)
            runtime.on(dispatch.intentName, style: .legacy) { request, context in
                let collector = INDonationCollector()
                var reply = try await INDonationCollector.$current.withValue(collector) {
                    try await INIntentProgress.$context.withValue(context) {
                        try await LegacyPhases.serve(request, context, handlerFor: { _ in adapter }, logger: logger, warnings: warnings)
                    }
                }
                if let donation = collector.last { reply.header[.donation] = donation.json }
                if let deletion = collector.deletion { reply.header[.deleteDonations] = deletion.json }
                return reply
            }
        }
    }
}
