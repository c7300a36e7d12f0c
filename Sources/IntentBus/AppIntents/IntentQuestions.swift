import Foundation

/// The request context of the `perform()` running in this task, and shared question
/// helpers.
enum IntentQuestions {
    /// Set by the runtime around binding and `perform()`.
    @TaskLocal static var context: PluginContext?

    static func currentContext() throws -> PluginContext {
        guard let context else {
            throw BusError(.internalError, "questions can only be asked inside perform(), while the runtime runs it")
        }
        return context
    }

    /// Asks the user to pick one of `options` and returns it.
    static func disambiguate<V: IntentValue>(parameter: String, among options: [V], dialog: String,
                                              context: PluginContext) async throws -> V {
        let answer = try await context.prompt(["kind": "disambiguation", "parameter": .string(parameter),
                                               "dialog": .string(dialog), "options": .array(options.map(\.intentOption))])
        let chosen = answer.displayText
        guard let picked = options.first(where: { $0.intentOption["id"]?.displayText == chosen }) else {
            throw BusError(.invalidParameters, "parameter \(parameter): \"\(chosen)\" is not one of the options offered",
                           details: ["parameter": .string(parameter)])
        }
        return picked
    }
}
