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
    /// `@objc optional` in Xcode's, here requirements with default implementations.
    func handlingSource(_ intent: DefinitionModel.Intent) -> String {
        let response = "\(intent.name)Response"
        let handle = "func handle(intent: \(intent.name), completion: @escaping (\(response)) -> Void)"
        let confirm = "func confirm(intent: \(intent.name), completion: @escaping (\(response)) -> Void)"
        var out = "public protocol \(intent.name)Handling: AnyObject {\n    \(handle)\n    \(confirm)\n"
        for (p, m) in resolvable(intent) { out += "    \(resolveSignature(intent, p, m))\n" }
        out += "}\n\nextension \(intent.name)Handling {\n"
        out += "    public \(confirm) {\n        completion(\(response)(code: .ready, userActivity: nil))\n    }\n"
        for (p, m) in resolvable(intent) {
            let pass = p.multiple ? "INIntentResolutionResult.passThroughItems(\(m.resolution).self, intent, \"\(p.name)\")" : "\(m.resolution).passThrough(intent, \"\(p.name)\")"
            out += "\n    public \(resolveSignature(intent, p, m)) {\n        completion(\(pass))\n    }\n"
        }
        return out + "}\n\n"
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
