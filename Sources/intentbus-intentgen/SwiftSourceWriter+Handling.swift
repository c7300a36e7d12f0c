extension SwiftSourceWriter {
    /// The resolvable parameters: those with a class here.
    func resolvable(_ intent: DefinitionModel.Intent) -> [(DefinitionModel.Value, SwiftTypeMapping)] {
        intent.parameters.compactMap { p in SwiftTypeMapping(p).map { (p, $0) } }
    }

    private func resolveSignature(_ intent: DefinitionModel.Intent, _ p: DefinitionModel.Value, _ m: SwiftTypeMapping) -> String {
        let result = p.multiple ? "[\(m.resolution)]" : m.resolution
        return "func resolve\(SwiftTypeMapping.capitalized(p.name))(for intent: \(intent.name), with completion: @escaping (\(result)) -> Void)"
    }

    /// `protocol StatusIntentHandling`: `handle` required; `confirm` and the resolves are
    /// `@objc optional` in Xcode's, here requirements with default implementations. Each
    /// has its `async` form beside it, as Xcode's protocol has (a handler writes either):
    /// the completion form's default runs the async one (`INAsyncForm.run`), the async
    /// form's default is the optional method's fallback, or for `handle`, an error.
    func handlingSource(_ intent: DefinitionModel.Intent) -> String {
        let response = "\(intent.name)Response"
        let handle = "func handle(intent: \(intent.name), completion: @escaping (\(response)) -> Void)"
        let handleAsync = "func handle(intent: \(intent.name)) async -> \(response)"
        let confirm = "func confirm(intent: \(intent.name), completion: @escaping (\(response)) -> Void)"
        let confirmAsync = "func confirm(intent: \(intent.name)) async -> \(response)"
        var out = "public protocol \(intent.name)Handling: AnyObject {\n    \(handle)\n    \(handleAsync)\n    \(confirm)\n    \(confirmAsync)\n"
        for (p, m) in resolvable(intent) { out += "    \(resolveSignature(intent, p, m))\n    \(resolveAsyncSignature(intent, p, m))\n" }
        for (p, element) in optionsProvided(intent) {
            out += "    \(optionsSignature(intent, p, element))\n    \(optionsAsyncSignature(intent, p, element))\n"
        }
        out += "}\n\nextension \(intent.name)Handling {\n"
        out += "    public \(handle) {\n        INAsyncForm.run({ await self.handle(intent: intent) }, completion)\n    }\n\n"
        out += "    public \(handleAsync) {\n        INAsyncForm.neither(\"handle(intent:) of \(intent.name)Handling\")\n"
        out += "        return \(response)(code: .unspecified, userActivity: nil)\n    }\n\n"
        out += "    public \(confirm) {\n        INAsyncForm.run({ await self.confirm(intent: intent) }, completion)\n    }\n\n"
        out += "    public \(confirmAsync) {\n        \(response)(code: .ready, userActivity: nil)\n    }\n"
        for (p, m) in resolvable(intent) {
            let pass = p.multiple ? "INIntentResolutionResult.passThroughItems(\(m.resolution).self, intent, \"\(p.name)\")" : "\(m.resolution).passThrough(intent, \"\(p.name)\")"
            let method = "resolve\(SwiftTypeMapping.capitalized(p.name))"
            out += "\n    public \(resolveSignature(intent, p, m)) {\n        INAsyncForm.run({ await self.\(method)(for: intent) }, completion)\n    }\n"
            out += "\n    public \(resolveAsyncSignature(intent, p, m)) {\n        \(pass)\n    }\n"
        }
        for (p, element) in optionsProvided(intent) {
            let method = "provide\(SwiftTypeMapping.capitalized(p.name))OptionsCollection"
            out += "\n    public \(optionsSignature(intent, p, element)) {\n        INAsyncForm.runThrowing({ try await self.\(method)(for: intent) }, completion)\n    }\n"
            out += "\n    public \(optionsAsyncSignature(intent, p, element)) {\n        INAsyncForm.neither(\"\(method)(for:) of \(intent.name)Handling\")\n"
            out += "        return INObjectCollection(items: [])\n    }\n"
        }
        return out + "}\n\n"
    }

    /// The parameters whose options the handler provides, with the options' class: a
    /// custom type, a value class, or `NSString` for a String, as Xcode writes them.
    func optionsProvided(_ intent: DefinitionModel.Intent) -> [(DefinitionModel.Value, String)] {
        intent.parameters.compactMap { p in
            guard p.dynamicOptions, !p.isEnum else { return nil }
            guard let element = SwiftTypeMapping.valueClasses[p.type]?.0 ?? (p.type == "Object" ? p.typeName : nil)
                ?? (p.type == "String" ? "NSString" : nil) else { return nil }
            return (p, element)
        }
    }

    private func optionsSignature(_ intent: DefinitionModel.Intent, _ p: DefinitionModel.Value, _ element: String) -> String {
        "func provide\(SwiftTypeMapping.capitalized(p.name))OptionsCollection(for intent: \(intent.name), with completion: @escaping (INObjectCollection<\(element)>?, (any Error)?) -> Void)"
    }

    private func optionsAsyncSignature(_ intent: DefinitionModel.Intent, _ p: DefinitionModel.Value, _ element: String) -> String {
        "func provide\(SwiftTypeMapping.capitalized(p.name))OptionsCollection(for intent: \(intent.name)) async throws -> INObjectCollection<\(element)>"
    }

    private func resolveAsyncSignature(_ intent: DefinitionModel.Intent, _ p: DefinitionModel.Value, _ m: SwiftTypeMapping) -> String {
        let result = p.multiple ? "[\(m.resolution)]" : m.resolution
        return "func resolve\(SwiftTypeMapping.capitalized(p.name))(for intent: \(intent.name)) async -> \(result)"
    }

    /// What `INExtensionRuntime` calls the handler through.
    func dispatchSource(_ intent: DefinitionModel.Intent) -> String {
        let n = intent.name
        var out = """
        enum \(n)Dispatch: INIntentDispatching {
            static var intentName: String { "\(n)" }

            static func makeIntent(_ values: INValueStore) -> INIntent {
                let intent = \(n)()
                intent.parameterValues = values
                return intent
            }

            static func isHandler(_ handler: Any) -> Bool { handler is any \(n)Handling }

            // A handler of the wrong class releases `completion` uncalled: a clear error, not a crash.
            static func handle(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
                guard let handler = handler as? any \(n)Handling, let intent = intent as? \(n) else { return }
                handler.handle(intent: intent, completion: { completion($0) })
            }

            static func confirm(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
                guard let handler = handler as? any \(n)Handling, let intent = intent as? \(n) else { return }
                handler.confirm(intent: intent, completion: { completion($0) })
            }

            static func resolve(_ handler: Any, _ parameter: String, _ intent: INIntent,
                                completion: @escaping (INIntentResolutionResult) -> Void) -> Bool {
                guard let handler = handler as? any \(n)Handling, let intent = intent as? \(n) else { return true }

        """
        guard !resolvable(intent).isEmpty else {
            return out + "        _ = (handler, intent, parameter, completion)\n        return false\n    }\n\(optionsDispatchSource(intent))}\n\n"
        }
        out += "        switch parameter {\n"
        for (p, _) in resolvable(intent) {
            let call = "handler.resolve\(SwiftTypeMapping.capitalized(p.name))(for: intent, with: "
            out += "        case \"\(p.name)\": \(call)\(p.multiple ? "{ completion(INIntentResolutionResult.items($0)) }" : "{ completion($0) }"))\n"
        }
        out += "        default: return false\n        }\n        return true\n    }\n\(optionsDispatchSource(intent))}\n\n"
        return out
    }

    /// `provideOptions` for the parameters with dynamic options (the protocol's default,
    /// false, for the rest).
    private func optionsDispatchSource(_ intent: DefinitionModel.Intent) -> String {
        let provided = optionsProvided(intent)
        guard !provided.isEmpty else { return "" }
        var out = """

            static func provideOptions(_ handler: Any, _ parameter: String, _ intent: INIntent,
                                       completion: @escaping (INOptionsResult) -> Void) -> Bool {
                guard let handler = handler as? any \(intent.name)Handling, let intent = intent as? \(intent.name) else { return true }
                switch parameter {

        """
        for (p, _) in provided {
            out += "        case \"\(p.name)\": handler.provide\(SwiftTypeMapping.capitalized(p.name))OptionsCollection(for: intent) { collection, error in\n"
            out += "            completion(INOptionsAnswer.of(collection, error, parameter: parameter))\n        }\n"
        }
        return out + "        default: return false\n        }\n        return true\n    }\n"
    }
}
