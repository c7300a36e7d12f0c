import Intents

/// TypesIntent: each parameter type's generated property, read back into one line, so
/// that a suite sees what the handler got. `resolveColor` asks for a missing color and
/// `resolveCount` turns down a negative one.
class TypesHandler: TypesIntentHandling {
    func resolveColor(for intent: TypesIntent, with completion: @escaping (ColorResolutionResult) -> Void) {
        completion(intent.color == .unknown ? .needsValue() : .success(with: intent.color))
    }

    func resolveCount(for intent: TypesIntent, with completion: @escaping (INIntegerResolutionResult) -> Void) {
        guard let count = intent.count else { return completion(.notRequired()) }
        completion(count.intValue < 0 ? .unsupported() : .success(with: count.intValue))
    }

    func handle(intent: TypesIntent, completion: @escaping (TypesIntentResponse) -> Void) {
        let day = intent.day.map { "\($0.year ?? 0)-\($0.month ?? 0)-\($0.day ?? 0)" } ?? "-"
        let parts = [
            "count=\(intent.count?.intValue ?? -1)", "ratio=\(intent.ratio?.doubleValue ?? -1)",
            "flag=\(intent.flag?.boolValue.description ?? "-")", "day=\(day)", "link=\(intent.link?.host ?? "-")",
            "color=\(intent.color) (\(intent.color.rawValue))", "tags=\((intent.tags ?? []).joined(separator: "+"))",
        ]
        completion(.success(summary: parts.joined(separator: " ")))
    }
}
