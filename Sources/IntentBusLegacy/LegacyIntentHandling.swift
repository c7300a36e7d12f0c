import Foundation
import IntentBusCore
import IntentBusPlugin
import Synchronization

/// The legacy phases as the bus carries them: the thin layer under the `Intents` module's
/// generated classes (`INHandlerAdapter` serves a generated `…Handling` protocol through
/// it). Package-internal: a Swift plugin writes a legacy handler one way, against the
/// classes generated from its definition (docs/sirikit.md); the wire-protocol fixtures
/// (Tests/Plugins/LegacyTest) and the benchmark's plugin use it to send what a generated
/// class never would (codes the definition lacks, raw values).
///
/// The host drives the phases: `resolve` for each parameter (again after the user
/// answered a question), then `confirm`, then `handle`. All three are async and may
/// take their time; `context.progress(_:)` reports progress while they do (a legacy
/// `inProgress`). Handlers keep no state between phases: `handler(for:)` may be asked
/// for a fresh one each time.
package protocol LegacyIntentHandling: Sendable {
    /// The codes `confirm` and `handle` may answer with.
    associatedtype ResponseCode: LegacyResponseCode

    /// Resolves one parameter (SiriKit's `resolve<Parameter>(for:with:)`). Switch on
    /// `parameter`. The default accepts the value as given; the host still asks for
    /// a *required* parameter that has none.
    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult

    /// Checks that the intent can be carried out, before anything happens. Return nil
    /// (the default) when the handler has no confirm step; the host then goes straight
    /// to `handle`, as Siri does when `confirm` is not implemented.
    func confirm(_ intent: LegacyIntent, context: PluginContext) async throws -> ConfirmOutcome<ResponseCode>?

    /// Does the work and answers with a code and its response parameters.
    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<ResponseCode>

    /// The options to offer for a parameter whose definition says the plugin provides
    /// them (`dynamicOptions`, SiriKit's `provide<Parameter>OptionsCollection`), asked
    /// before the user is asked for its value. Nil (the default): none; the host asks
    /// without them.
    func options(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> [ResolutionOption]?
}

extension LegacyIntentHandling {
    package func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        .success(intent[parameter] ?? .null)
    }

    package func confirm(_ intent: LegacyIntent, context: PluginContext) async throws -> ConfirmOutcome<ResponseCode>? {
        DefaultConfirms.note(type(of: self))
        return nil
    }

    package func options(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> [ResolutionOption]? {
        nil
    }
}

/// The handler types whose `confirm` is the protocol's default (no confirm step), learnt
/// the first time the default runs for one: a type's witness never changes, so the SDK
/// answers "not implemented" for it from then on without the call. The call is generic over
/// the handler's response code, and in the SDK's unspecialized serving code it instantiated
/// `ConfirmOutcome<Code>` and its optional on every request (docs/performance.md, "Legacy's
/// run REPLY read in place"). At most 256 types are kept (a plugin has a handful).
enum DefaultConfirms {
    private static let known = Mutex<[ObjectIdentifier]>([])

    static func note(_ type: Any.Type) {
        let id = ObjectIdentifier(type)
        known.withLock { if $0.count < 256, !$0.contains(id) { $0.append(id) } }
    }

    static func contains(_ type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        return known.withLock { $0.contains(id) }
    }
}
