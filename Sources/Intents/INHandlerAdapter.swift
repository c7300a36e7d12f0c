import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusLegacy

/// Serves one generated intent's `…Handling` protocol as a legacy handler: each phase
/// makes the intent from the host's values, asks the extension for a handler and awaits
/// the handler's completion (`INCompletion`: once, from any thread).
struct INHandlerAdapter: LegacyIntentHandling {
    typealias ResponseCode = INResponseCodeName
    let dispatch: any INIntentDispatching.Type
    let provider: INExtensionBox
    let timeout: Duration
    let logger: Logger

    private func handler(_ intent: LegacyIntent) throws -> (INIntent, Any) {
        let made = dispatch.makeIntent(INValueStore(intent.parameters))
        let handler = provider.value.handler(for: made)
        guard dispatch.isHandler(handler) else {
            throw BusError(.pluginError, "handler(for: \(dispatch.intentName)) returned a \(type(of: handler)), which does not conform to \(dispatch.intentName)Handling")
        }
        return (made, handler)
    }

    // Each phase makes the handler inside the completion's body, so that nothing here
    // keeps it alive while the phase waits (INCompletion.value).
    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        var known = true
        let result: INIntentResolutionResult = try await INCompletion.value(
            "resolve\(parameter.prefix(1).uppercased() + parameter.dropFirst())(for:with:) of \(dispatch.intentName)",
            timeout: timeout, logger: logger) { completion in
            let (made, handler) = try self.handler(intent)
            known = dispatch.resolve(handler, parameter, made, completion: completion)
            if !known { completion(INIntentResolutionResult.notRequired()) }
        }
        return known ? result.result : .notRequired
    }

    func confirm(_ intent: LegacyIntent, context: PluginContext) async throws -> ConfirmOutcome<ResponseCode>? {
        let response: INIntentResponse = try await INCompletion.value(
            "confirm(intent:completion:) of \(dispatch.intentName)", timeout: timeout, logger: logger) { completion in
            let (made, handler) = try self.handler(intent)
            dispatch.confirm(handler, made, completion: completion)
        }
        return response.codeName == "ready" ? .ready : .failure(try legacy(response))
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<ResponseCode> {
        let response: INIntentResponse = try await INCompletion.value(
            "handle(intent:completion:) of \(dispatch.intentName)", timeout: timeout, logger: logger) { completion in
            let (made, handler) = try self.handler(intent)
            dispatch.handle(handler, made, completion: completion)
        }
        return try legacy(response)
    }

    func options(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> [ResolutionOption]? {
        var known = true
        let result: INOptionsResult = try await INCompletion.value(
            "provide\(parameter.prefix(1).uppercased() + parameter.dropFirst())OptionsCollection(for:with:) of \(dispatch.intentName)",
            timeout: timeout, logger: logger) { completion in
            let (made, handler) = try self.handler(intent)
            known = dispatch.provideOptions(handler, parameter, made, completion: completion)
            if !known { completion(.success([])) }
        }
        return known ? try result.get() : nil
    }

    private func legacy(_ response: INIntentResponse) throws(BusError) -> LegacyResponse<ResponseCode> {
        var out = LegacyResponse(INResponseCodeName(rawValue: response.codeName), response.responseValues.values)
        if let next = response.opensIntent {
            guard let name = INRegisteredIntents.shared.name(of: next) else {
                throw BusError(.pluginError, "\(dispatch.intentName)'s response opens a \(type(of: next)), which is no intent this extension serves")
            }
            out.opensIntent = OpenedIntent(name, parameters: .object(next.parameterValues.values))
        }
        return out
    }
}

/// The extension instance, shared by every request's task. SiriKit calls an extension
/// from any thread too; its `handler(for:)` must be safe to call so.
final class INExtensionBox: @unchecked Sendable {
    // @unchecked: see above; the instance is never replaced.
    let value: INExtension
    init(_ value: INExtension) { self.value = value }
}
