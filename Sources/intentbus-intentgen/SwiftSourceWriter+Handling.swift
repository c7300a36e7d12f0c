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
        return out + "}\n\n"
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
            return out + "        _ = (handler, intent, parameter, completion)\n        return false\n    }\n}\n\n"
        }
        out += "        switch parameter {\n"
        for (p, _) in resolvable(intent) {
            let call = "handler.resolve\(SwiftTypeMapping.capitalized(p.name))(for: intent, with: "
            out += "        case \"\(p.name)\": \(call)\(p.multiple ? "{ completion(INIntentResolutionResult.items($0)) }" : "{ completion($0) }"))\n"
        }
        out += "        default: return false\n        }\n        return true\n    }\n}\n\n"
        return out
    }
}
