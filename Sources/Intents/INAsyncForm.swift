import Foundation
import IntentBusCore

/// The `async` forms of the handling methods (Xcode's protocols have
/// `func handle(intent:) async -> StatusIntentResponse` beside
/// `handle(intent:completion:)`; a handler implements either). The runtime calls the
/// completion form; its default runs the async form, so whichever the handler wrote
/// answers. A handler that wrote neither `handle` has its completion released
/// uncalled: a clear error on the bus (INCompletion), and the log says which.
public enum INAsyncForm {
    /// Marks the task of one `run` whose async form turned out to be the default too.
    final class Neither: @unchecked Sendable {
        // @unchecked: `method` is only touched under `lock`.
        private let lock = Lock()
        private var method: String?
        func mark(_ name: String) { lock.withLock { method = name } }
        var marked: String? { lock.withLock { method } }
    }

    @TaskLocal static var current: Neither?

    /// What a completion form's default does: runs `body` (the async form) in a task of
    /// its own and hands its value to `completion`, unless the async form was the default.
    public static func run<R>(_ body: @escaping () async -> R, _ completion: @escaping (R) -> Void) {
        nonisolated(unsafe) let parts = (body, completion)
        Task {
            let neither = Neither()
            let value = await $current.withValue(neither) { await parts.0() }
            if let method = neither.marked {
                Logger(label: "Intents").error("the handler implements neither \(method)(…completion:) nor its async form")
                return
            }
            parts.1(value)
        }
    }

    /// The same for a throwing async form (`provide…OptionsCollection`): its value or its
    /// error goes to the completion, as Apple's `(collection, error)` pair.
    public static func runThrowing<R>(_ body: @escaping () async throws -> R, _ completion: @escaping (R?, (any Error)?) -> Void) {
        run({ () async -> Result<R, any Error> in
            do { return .success(try await body()) } catch { return .failure(error) }
        }, { result in
            switch result {
            case .success(let value): completion(value, nil)
            case .failure(let error): completion(nil, error)
            }
        })
    }

    /// What a required async form's default does: says that the handler has neither form,
    /// so that `run` releases the completion uncalled. The caller returns a placeholder
    /// that nobody receives.
    public static func neither(_ method: String) {
        current?.mark(method)
    }
}
