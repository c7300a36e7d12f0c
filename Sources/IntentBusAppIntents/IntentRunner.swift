import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// Reads an intent type's declaration through its property wrappers.
package enum IntentReflection {
    struct Declaration {
        let intent: NewStyleIntent
        let entities: [EntityDescriptor]
        let enums: [EnumDescriptor]
    }

    /// The `@Parameter`s of an intent instance, by wire name, in declaration order.
    package static func parameters(of intent: some AppIntent) -> [(String, any AnyIntentParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, let p = child.value as? any AnyIntentParameter else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, p)
        }
    }

    /// The parameters `intent` holds values for, as a client would send them.
    static func currentValues<I: AppIntent>(of intent: I) -> JSON {
        var out: [String: JSON] = [:]
        for (name, parameter) in parameters(of: intent) {
            if let value = parameter.currentArgument { out[name] = value }
        }
        return .object(out)
    }

    /// The wire name of the parameter `keyPath` reaches (`\.$project` → `project`):
    /// the property whose wrapper is that object in a fresh instance.
    static func parameterName<I: AppIntent, V>(_ keyPath: KeyPath<I, IntentParameter<V>>) -> String? {
        let intent = I()
        let target = intent[keyPath: keyPath]
        return parameters(of: intent).first { $0.1 === target }?.0
    }

    static func describe<I: AppIntent>(_ type: I.Type) -> Declaration {
        let params = parameters(of: I())
        var entities: [EntityDescriptor] = [], enums: [EnumDescriptor] = []
        for (_, p) in params {
            switch p.valueType {
            case .entity(let e): entities.append(e)
            case .enumeration(let e): enums.append(e)
            default: break
            }
        }
        let intent = NewStyleIntent(identifier: I.persistentIdentifier, title: I.title.sourceText,
                                    description: I.description.text.sourceText,
                                    category: I.description.categoryName?.sourceText, authentication: I.authenticationPolicy,
                                    parameters: params.map { $0.1.declaration(name: $0.0) },
                                    summary: I.parameterSummary.summaryDeclaration, discoverable: I.isDiscoverable)
        return Declaration(intent: intent, entities: entities, enums: enums)
    }
}

/// Runs one request: bind the parameters, perform, and restart after a needs-value error.
enum IntentRunner {
    /// How often one request may restart `perform()` after needs-value errors.
    static let maxRestarts = 10

    /// Binds `intent`'s parameters to `values` and runs its `perform()`, with `state` as
    /// the request's task local; the REPLY body's canonical text.
    private static func bindAndPerform<I: AppIntent>(_ intent: I, _ params: [(String, any AnyIntentParameter)],
                                                     _ values: [String: JSON], _ state: IntentRequestState) async throws -> [UInt8] {
        try await IntentRequestState.$current.withValue(state) {
            for (name, parameter) in params
            where try !parameter.bindImmediately(name: name, json: values[name], context: state.context) {
                try await parameter.bindAsynchronously(json: values[name])
            }
            let performed = try await intent.perform()
            guard let parts = performed._intentBusParts?.parts else {
                throw BusError(.internalError, "\(I.persistentIdentifier).perform() returned \(Swift.type(of: performed)); return one of the .result(…) overloads")
            }
            // The dialog is resolved here, in the request's locale.
            return parts.canonicalBody(continueInApp: I.openAppWhenRun || state.continuesInForeground)
        }
    }

    /// `table`: `I`'s parameter table, found once when the intent was registered (nil: read
    /// with `Mirror`).
    static func perform<I: AppIntent>(_ type: I.Type, table: IntentParameterTable?, request: PluginRequest,
                                      context: PluginContext) async throws -> PluginReply {
        var values = request.parameters.objectValue ?? [:]
        var restarts = 0
        while true {
            let intent = I()
            let params = table?.parameters(of: intent) ?? IntentReflection.parameters(of: intent)
            // One task local for the request's state and context (`IntentQuestions.context`
            // reads it), beside the public locale: each one pushed costs a task allocation,
            // so the locale is pushed only when the request has one (or one is set around
            // this call, which a request without one must not inherit).
            let state = IntentRequestState(context: context)
            do {
                let locale = request.header["locale"]?.stringValue
                let body = locale == nil && IntentLocale.request == nil
                    ? try await bindAndPerform(intent, params, values, state)
                    : try await IntentLocale.$request.withValue(locale) { try await bindAndPerform(intent, params, values, state) }
                return PluginReply(status: .success, canonicalBody: body, header: state.header)
            } catch is UserCancelledError {
                throw BusError(.cancelled, "the user declined; \(I.persistentIdentifier) did not run to the end")
            } catch let needs as NeedsValueError {
                restarts += 1
                guard restarts <= maxRestarts else {
                    throw BusError(.invalidParameters, "parameter \(needs.parameter) still has no usable value after \(maxRestarts) answers",
                                   details: ["parameter": .string(needs.parameter)])
                }
                // Ask, then run perform() again from the start with the answer.
                values[needs.parameter] = try await context.prompt(needs.prompt)
            }
        }
    }
}
