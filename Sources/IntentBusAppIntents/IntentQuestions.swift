import Foundation
import IntentBusCore
import IntentBusPlugin

/// The request context of the `perform()` running in this task, and shared question
/// helpers.
enum IntentQuestions {
    /// The request's context while the runtime binds and performs (`IntentRequestState`).
    static var context: PluginContext? { IntentRequestState.current?.context }
    /// The list item being converted (index, count), while a list parameter is bound.
    @TaskLocal static var item: (index: Int, count: Int)?

    static func currentContext() throws -> PluginContext {
        guard let context else {
            throw BusError(.internalError, "questions can only be asked inside perform(), while the runtime runs it")
        }
        return context
    }

    /// Asks the user to pick one of `options` and returns it.
    static func disambiguate<V: IntentValue>(parameter: String, among options: [V], dialog: String,
                                              context: PluginContext) async throws -> V {
        var prompt: [String: JSON] = ["kind": PromptKind.disambiguation.json, "parameter": .string(parameter),
                                      "dialog": .string(dialog), "options": .array(options.map(\.intentOption))]
        if let item { prompt["item"] = .int(Int64(item.index)); prompt["items"] = .int(Int64(item.count)) }
        let answer = try await context.prompt(.object(prompt))
        let chosen = answer.displayText
        guard let picked = options.first(where: { $0.intentOption["id"]?.displayText == chosen }) else {
            throw BusError(.invalidParameters, "parameter \(parameter): \"\(chosen)\" is not one of the options offered",
                           details: ["parameter": .string(parameter)])
        }
        return picked
    }
}
