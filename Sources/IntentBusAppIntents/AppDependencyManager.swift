import Foundation
import IntentBusCore

/// Where intents find the app's shared objects (App Intents' `AppDependencyManager`):
/// the plugin's main adds them before serving, `@Dependency` reads them.
///
/// ```swift
/// AppDependencyManager.shared.add(dependency: ProjectStore.shared)
/// struct OpenProjectIntent: AppIntent { @Dependency var store: ProjectStore … }
/// ```
///
/// Threading: add before `run()`; reads from any task are guarded by `lock`.
public final class AppDependencyManager: @unchecked Sendable {
    // @unchecked: `factories` and `made` are only touched under `lock`.
    public static let shared = AppDependencyManager()

    private let lock = Lock()
    private var factories: [String: @Sendable () -> any Sendable] = [:]
    private var made: [String: any Sendable] = [:]

    public init() {}

    /// Adds a dependency, made on first use; `key` tells apart several of one type.
    public func add<D: Sendable>(key: String? = nil, dependency: @autoclosure @escaping @Sendable () -> D) {
        lock.withLock { factories[Self.slot(D.self, key)] = dependency }
    }

    /// The dependency of type `D` (and `key`), or nil when none was added.
    public func resolve<D: Sendable>(_ type: D.Type, key: String? = nil) -> D? {
        let slot = Self.slot(D.self, key)
        return lock.withLock {
            if let existing = made[slot] as? D { return existing }
            guard let made = factories[slot]?() as? D else { return nil }
            self.made[slot] = made
            return made
        }
    }

    private static func slot<D>(_ type: D.Type, _ key: String?) -> String { "\(String(reflecting: D.self))#\(key ?? "")" }
}

/// A dependency an intent reads (App Intents' `@Dependency`). Reading one that was not
/// added is a programming error and stops the plugin with its type named, as it does on
/// Apple's platforms.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
    private let key: String?

    public init(key: String? = nil) { self.key = key }

    public var wrappedValue: Value {
        guard let value = AppDependencyManager.shared.resolve(Value.self, key: key) else {
            preconditionFailure("no dependency of type \(Value.self) was added: call AppDependencyManager.shared.add(dependency:) before serving")
        }
        return value
    }
}
